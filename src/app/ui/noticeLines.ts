/**
 * Which lines the notice stack shows (pure, so Node tests reach it): notices of one `group` (an
 * asteroid's failures, say) collapse into one line that names how many there are and shows the
 * newest; the rest stand alone. The newest lines come last, and at most {@link MAX_NOTICE_LINES}
 * lines show: older ones fold into a final "N more" line, so a storm of notices never covers the scene.
 */

export type NoticeLevel = 'info' | 'warning' | 'error';

export interface Notice {
  key: string;
  level: NoticeLevel;
  text: string;
  /** Notices of one group show as one line with a count. */
  group?: string;
  /** The scene (or other owner) the notice speaks of: it goes when that does (Notices.clearScope). */
  scope?: string;
}

export interface NoticeLine {
  /** The notices this line stands for (dismissing the line dismisses them all). */
  keys: string[];
  level: NoticeLevel;
  text: string;
  /** How many notices the line stands for. */
  count: number;
  /** The newest notice's key (its action, if any, is the line's). */
  newest: string;
  /** The line that folds older lines (no action of its own). */
  folded?: boolean;
}

/** Lines shown at most; the rest fold into one "more" line. */
export const MAX_NOTICE_LINES = 4;

const RANK: Record<NoticeLevel, number> = { info: 0, warning: 1, error: 2 };

/** The lines for `notices` (oldest first), grouped and capped. */
export function noticeLines(notices: readonly Notice[], maxLines = MAX_NOTICE_LINES): NoticeLine[] {
  const lines: NoticeLine[] = [];
  const byGroup = new Map<string, NoticeLine>();
  for (const n of notices) {
    const line = n.group !== undefined ? byGroup.get(n.group) : undefined;
    if (!line) {
      const fresh: NoticeLine = { keys: [n.key], level: n.level, text: n.text, count: 1, newest: n.key };
      lines.push(fresh);
      if (n.group !== undefined) byGroup.set(n.group, fresh);
      continue;
    }
    line.keys.push(n.key);
    line.count++;
    line.newest = n.key;
    if (RANK[n.level] > RANK[line.level]) line.level = n.level;
    line.text = `${n.text} (${line.count} notices like this)`;
  }
  if (lines.length <= maxLines) return lines;
  const hidden = lines.slice(0, lines.length - (maxLines - 1));
  const more: NoticeLine = {
    keys: hidden.flatMap((l) => l.keys),
    level: hidden.reduce<NoticeLevel>((a, l) => (RANK[l.level] > RANK[a] ? l.level : a), 'info'),
    text: `${hidden.reduce((s, l) => s + l.count, 0)} older notices (× dismisses them)`,
    count: hidden.reduce((s, l) => s + l.count, 0),
    newest: hidden[hidden.length - 1].newest,
    folded: true,
  };
  return [more, ...lines.slice(lines.length - (maxLines - 1))];
}
