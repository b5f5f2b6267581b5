import type { Progress, ProgressSnapshot } from '../progress';

/** The on-screen bar for {@link Progress}: hidden when idle, label and percentage when busy. */
export class ProgressBar {
  readonly element: HTMLElement;
  private readonly fill: HTMLElement;
  private readonly label: HTMLElement;
  private readonly unsubscribe: () => void;

  constructor(parent: HTMLElement, progress: Progress) {
    this.element = document.createElement('div');
    this.element.className = 'sr-progress';
    this.element.setAttribute('role', 'progressbar');
    this.element.setAttribute('aria-valuemin', '0');
    this.element.setAttribute('aria-valuemax', '100');
    this.fill = document.createElement('div');
    this.fill.className = 'sr-progress-fill';
    this.label = document.createElement('div');
    this.label.className = 'sr-progress-label';
    this.element.append(this.fill, this.label);
    parent.appendChild(this.element);
    this.unsubscribe = progress.subscribe((s) => this.update(s));
  }

  private update(s: ProgressSnapshot): void {
    const busy = s.active > 0;
    const percent = Math.round(s.fraction * 100);
    this.element.hidden = !busy && s.errors.length === 0;
    this.element.classList.toggle('sr-progress-failed', s.errors.length > 0);
    this.element.setAttribute('aria-valuenow', String(percent));
    this.fill.style.width = `${percent}%`;
    this.label.textContent = busy
      ? `${s.label} — ${percent}% (${s.done}/${s.total})`
      : s.errors.length > 0
        ? `failed: ${s.errors.join('; ')}`
        : '';
  }

  dispose(): void {
    this.unsubscribe();
    this.element.remove();
  }
}
