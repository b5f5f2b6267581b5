import type { WebGLRenderer } from 'three';

const WINDOW = 120;

export interface FrameStats {
  frames: number;
  /** Median and max frame interval over the last WINDOW frames, ms. */
  medianMs: number;
  maxMs: number;
  fps: number;
}

/**
 * Frame-time and renderer statistics: a small overlay, updated a few times a second so the
 * overlay itself costs nothing measurable. Extra lines (sampling path, chunk counts) are
 * added by whoever owns those numbers via {@link StatsOverlay.setLine}.
 */
export class StatsOverlay {
  readonly element: HTMLElement;
  private readonly intervals = new Float64Array(WINDOW);
  private readonly sorted = new Float64Array(WINDOW);
  private count = 0;
  private last = -1;
  private lastPaint = 0;
  private readonly lines = new Map<string, string>();
  frames = 0;

  constructor(parent: HTMLElement, private readonly renderer: WebGLRenderer) {
    this.element = document.createElement('pre');
    this.element.className = 'sr-stats';
    parent.appendChild(this.element);
  }

  setLine(key: string, text: string): void {
    this.lines.set(key, text);
  }

  clearLine(key: string): void {
    this.lines.delete(key);
  }

  /** Call once per rendered frame with the rAF timestamp. */
  frame(nowMs: number): void {
    this.frames++;
    if (this.last >= 0) {
      this.intervals[this.count % WINDOW] = nowMs - this.last;
      this.count++;
    }
    this.last = nowMs;
    if (nowMs - this.lastPaint > 250) {
      this.lastPaint = nowMs;
      this.paint();
    }
  }

  stats(): FrameStats {
    const n = Math.min(this.count, WINDOW);
    if (n === 0) return { frames: this.frames, medianMs: 0, maxMs: 0, fps: 0 };
    const view = this.sorted.subarray(0, n);
    view.set(this.intervals.subarray(0, n));
    view.sort();
    const medianMs = view[n >> 1];
    return { frames: this.frames, medianMs, maxMs: view[n - 1], fps: medianMs > 0 ? 1000 / medianMs : 0 };
  }

  private paint(): void {
    const s = this.stats();
    const info = this.renderer.info;
    const text = [
      `${s.fps.toFixed(0)} fps  frame ${s.medianMs.toFixed(1)} ms (max ${s.maxMs.toFixed(1)})`,
      `draws ${info.render.calls}  tris ${info.render.triangles.toLocaleString('en')}`,
      `geometries ${info.memory.geometries}  textures ${info.memory.textures}`,
      ...this.lines.values(),
    ];
    this.element.textContent = text.join('\n');
  }
}

/** `ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) …))` → a line that fits the overlay. */
export function shortRenderer(renderer: string): string {
  if (!renderer) return 'unknown';
  const s = renderer.replace(/^ANGLE \((.*)\)$/, '$1');
  return s.length > 56 ? `${s.slice(0, 55)}…` : s;
}
