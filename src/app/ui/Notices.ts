/**
 * On-page messages: warnings about bad URL parameters, errors from jobs, lost contexts.
 * Each notice can be dismissed; a notice with a `key` replaces an earlier one with the same key
 * instead of stacking. Notices of one `group` show as one line with a count, and at most a few
 * lines show (noticeLines.ts). A notice of a `scope` (a scene) goes when that scope is cleared:
 * the notices of a scene that is gone never outlive it.
 */
import { noticeLines, type Notice, type NoticeLevel } from './noticeLines';

export type { Notice, NoticeLevel } from './noticeLines';

export interface NoticeAction {
  label: string;
  run: () => void;
}

export interface NoticeOptions {
  /** Notices of one group collapse into one line with a count. */
  group?: string;
  /** What the notice speaks of (a scene): {@link Notices.clearScope} takes it away with it. */
  scope?: string;
}

export class Notices {
  readonly element: HTMLElement;
  private readonly items = new Map<string, { notice: Notice; action?: NoticeAction }>();
  private counter = 0;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'sr-notices';
    this.element.setAttribute('role', 'status');
    this.element.setAttribute('aria-live', 'polite');
    parent.appendChild(this.element);
  }

  /**
   * Shows a notice; `action` adds a button (e.g. "Retry") that runs it and dismisses the notice.
   */
  show(level: NoticeLevel, text: string, key = `notice-${++this.counter}`, action?: NoticeAction, options: NoticeOptions = {}): string {
    this.items.delete(key); // a replaced notice moves to the newest place
    this.items.set(key, { notice: { key, level, text, ...options }, action });
    this.render();
    return key;
  }

  dismiss(key: string): void {
    if (this.items.delete(key)) this.render();
  }

  /** Takes away every notice of `scope` (the scene it spoke of is gone). */
  clearScope(scope: string): void {
    let changed = false;
    for (const [key, item] of this.items) {
      if (item.notice.scope === scope) changed = this.items.delete(key) || changed;
    }
    if (changed) this.render();
  }

  /** Every notice held (grouped lines count each of theirs). */
  list(): Notice[] {
    return [...this.items.values()].map((i) => i.notice);
  }

  /** Bad URL parameters, named on the page — or in the console when the UI is hidden (screenshot mode). */
  showUrlProblems(problems: readonly { param: string; message: string }[], onPage: boolean): void {
    for (const p of problems) {
      if (!onPage) console.warn(`URL parameter ${p.param}: ${p.message}`);
      else this.show('warning', `URL parameter “${p.param}”: ${p.message}`, `url-${p.param}`);
    }
  }

  private render(): void {
    const elements = noticeLines(this.list()).map((line) => {
      const element = document.createElement('div');
      element.className = `sr-notice sr-notice-${line.level}`;
      element.dataset.key = line.newest;
      if (line.count > 1) element.dataset.count = String(line.count);
      const span = document.createElement('span');
      span.textContent = line.text;
      element.append(span);
      const dismissAll = (): void => {
        for (const key of line.keys) this.items.delete(key);
        this.render();
      };
      const action = line.folded ? undefined : this.items.get(line.newest)?.action;
      if (action) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'sr-notice-action';
        button.textContent = action.label;
        button.addEventListener('click', () => {
          dismissAll();
          action.run();
        });
        element.append(button);
      }
      const close = document.createElement('button');
      close.type = 'button';
      close.textContent = '×';
      close.title = line.count > 1 ? `Dismiss all ${line.count}` : 'Dismiss';
      close.addEventListener('click', dismissAll);
      element.append(close);
      return element;
    });
    this.element.replaceChildren(...elements);
  }
}
