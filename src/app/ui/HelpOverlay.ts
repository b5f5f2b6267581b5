/**
 * The help overlay (issue 45): `?` or `H` (or the Controls' *help* button) shows every key and click
 * the explorer answers to; the same key, Escape, its × or a click outside the list closes it.
 */

/** What each key and click does, in the order a newcomer needs them. */
export const HELP_KEYS: readonly (readonly [string, string])[] = [
  ['click', 'go to what is under the pointer (the planet, an asteroid)'],
  ['drag · wheel', 'orbit · zoom (orbit camera)'],
  ['F', 'fly / orbit camera'],
  ['W A S D · Q E', 'fly: move · down, up (drag looks, wheel sets the speed)'],
  ['T', 'throw a probe'],
  ['B', 'brush: click digs, shift-click builds'],
  ['R + wheel', 'brush radius'],
  ['Ctrl+Z · Ctrl+Shift+Z', 'undo · redo an edit'],
  ['P', 'save a screenshot (PNG)'],
  ['? or H', 'this help'],
];

export class HelpOverlay {
  readonly element: HTMLElement;

  constructor(parent: HTMLElement) {
    this.element = document.createElement('div');
    this.element.className = 'sr-help';
    this.element.setAttribute('role', 'dialog');
    this.element.setAttribute('aria-label', 'Keys and clicks');
    this.element.hidden = true;
    const box = document.createElement('div');
    box.className = 'sr-help-box';
    const title = document.createElement('h2');
    title.textContent = 'Keys and clicks';
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = '×';
    close.setAttribute('aria-label', 'Close help');
    close.addEventListener('click', () => this.show(false));
    const list = document.createElement('dl');
    for (const [key, what] of HELP_KEYS) {
      const dt = document.createElement('dt');
      dt.textContent = key;
      const dd = document.createElement('dd');
      dd.textContent = what;
      list.append(dt, dd);
    }
    box.append(close, title, list);
    this.element.append(box);
    this.element.addEventListener('click', (e) => {
      if (e.target === this.element) this.show(false);
    });
    parent.appendChild(this.element);
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  show(on = !this.visible): void {
    this.element.hidden = !on;
  }

  dispose(): void {
    this.element.remove();
  }
}
