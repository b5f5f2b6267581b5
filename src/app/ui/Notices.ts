/**
 * On-page messages: warnings about bad URL parameters, errors from jobs, lost contexts.
 * Each notice can be dismissed; a notice with a `key` replaces an earlier one with the
 * same key instead of stacking.
 */

export type NoticeLevel = 'info' | 'warning' | 'error';

export interface Notice {
  key: string;
  level: NoticeLevel;
  text: string;
}

export interface NoticeAction {
  label: string;
  run: () => void;
}

export class Notices {
  readonly element: HTMLElement;
  private readonly items = new Map<string, { notice: Notice; element: HTMLElement }>();
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
  show(level: NoticeLevel, text: string, key = `notice-${++this.counter}`, action?: NoticeAction): string {
    this.dismiss(key);
    const element = document.createElement('div');
    element.className = `sr-notice sr-notice-${level}`;
    element.dataset.key = key;
    const span = document.createElement('span');
    span.textContent = text;
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = '×';
    close.title = 'Dismiss';
    close.addEventListener('click', () => this.dismiss(key));
    element.append(span);
    if (action) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'sr-notice-action';
      button.textContent = action.label;
      button.addEventListener('click', () => {
        this.dismiss(key);
        action.run();
      });
      element.append(button);
    }
    element.append(close);
    this.element.appendChild(element);
    this.items.set(key, { notice: { key, level, text }, element });
    return key;
  }

  dismiss(key: string): void {
    const item = this.items.get(key);
    if (!item) return;
    item.element.remove();
    this.items.delete(key);
  }

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
}
