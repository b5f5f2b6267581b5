import { describe, expect, it } from 'vitest';
import { MAX_NOTICE_LINES, noticeLines, type Notice } from '../../src/app/ui/noticeLines';

const n = (key: string, text: string, extra: Partial<Notice> = {}): Notice => ({ key, level: 'warning', text, ...extra });

describe('notice lines (issue 45)', () => {
  it('notices of one group collapse into one line with a count, the newest text shown', () => {
    const lines = noticeLines([
      n('a1', 'Asteroid 1 failed', { group: 'asteroids' }),
      n('x', 'URL parameter “seed”: bad'),
      n('a2', 'Asteroid 2 failed', { group: 'asteroids', level: 'error' }),
      n('a3', 'Asteroid 3 failed', { group: 'asteroids' }),
    ]);
    expect(lines).toHaveLength(2);
    expect(lines[0].keys).toEqual(['a1', 'a2', 'a3']);
    expect(lines[0].count).toBe(3);
    expect(lines[0].level).toBe('error');
    expect(lines[0].text).toBe('Asteroid 3 failed (3 notices like this)');
    expect(lines[0].newest).toBe('a3');
    expect(lines[1].text).toBe('URL parameter “seed”: bad');
  });

  it(`at most ${MAX_NOTICE_LINES} lines: older ones fold into one line that dismisses them all`, () => {
    const many = Array.from({ length: 36 }, (_, i) => n(`k${i}`, `notice ${i}`));
    const lines = noticeLines(many);
    expect(lines).toHaveLength(MAX_NOTICE_LINES);
    expect(lines[0].folded).toBe(true);
    expect(lines[0].count).toBe(36 - (MAX_NOTICE_LINES - 1));
    expect(lines[0].text).toMatch(/^33 older notices/);
    expect(lines.at(-1)!.text).toBe('notice 35');
    expect(lines.flatMap((l) => l.keys).sort()).toEqual(many.map((m) => m.key).sort());
  });
});
