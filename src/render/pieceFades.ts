/**
 * Cross-fades between the planet's drawn sets (issue 20, "no popping"): when a LOD transaction
 * commits, the pieces it hides fade out while the pieces it shows fade in, over {@link FADE_S},
 * with complementary screen-door dithers (glsl/sr_dither.glsl: a mesh at `t` and one at `1 − t`
 * with the pattern flipped cover every pixel exactly once), so the surface never has a hole and
 * never changes in one frame. Each set alone is watertight (chunks with their seams), so during
 * the fade every pixel shows one of two closed surfaces.
 *
 * - A commit while a fade runs first finishes it (the older set gone, the newer one whole): every
 *   fading mesh then shares one phase, which keeps the two patterns complementary.
 * - A piece disposed while it fades out keeps its mesh until the fade ends.
 * - `enabled = false` (an edit waiting to be drawn: it shows at once) hides and shows at once.
 *
 * Only `visible` is touched: the logic runs in Node tests with plain objects.
 */
export const FADE_S = 0.35;

export interface Fadeable {
  visible: boolean;
}

export interface FadeState {
  /** 0 hidden … 1 opaque. */
  fade: number;
  /** The flipped pattern (the outgoing mesh). */
  complement: boolean;
}

const OPAQUE: FadeState = { fade: 1, complement: false };

export class PieceFades<M extends Fadeable = Fadeable> {
  enabled = true;
  private readonly fading = new Map<M, 'in' | 'out'>();
  private readonly deferred = new Map<M, () => void>();
  private startedAt = 0;
  private startFrame = -1;
  private frame = 0;
  private t = 1;

  constructor(private readonly durationS = FADE_S, private readonly now: () => number = () => performance.now()) {}

  /** A fade is running (the frame still changes without anything new). */
  get active(): boolean {
    return this.fading.size > 0;
  }

  /** Once a frame, before any commit: advances the phase, ends a finished fade. */
  tick(): void {
    this.frame++;
    if (!this.active) return;
    this.t = Math.min(1, (this.now() - this.startedAt) / (1000 * this.durationS));
    if (this.t >= 1) this.finish();
  }

  show(mesh: M): void {
    if (!this.enabled) {
      // A fade still running would draw the set before the edit, dithered, over it.
      if (this.active) this.finish();
      this.fading.delete(mesh);
      mesh.visible = true;
      return;
    }
    this.begin();
    // Shown again while fading out (the commit before was undone): it is whole again.
    if (this.fading.get(mesh) === 'out') this.fading.delete(mesh);
    else if (!mesh.visible) this.fading.set(mesh, 'in');
    mesh.visible = true;
  }

  hide(mesh: M): void {
    if (this.enabled) this.settle();
    else if (this.active) this.finish();
    // Disabled, not shown, or shown by this very commit: gone at once.
    if (!this.enabled || !mesh.visible || this.fading.get(mesh) === 'in') {
      this.fading.delete(mesh);
      mesh.visible = false;
      return;
    }
    this.begin();
    this.fading.set(mesh, 'out');
  }

  /** `release` now, or once the mesh has faded out. */
  dispose(mesh: M, release: () => void): void {
    if (this.fading.get(mesh) === 'out') {
      this.deferred.set(mesh, release);
      return;
    }
    this.fading.delete(mesh);
    release();
  }

  /** The fade's phase, 0 (just committed) … 1 (done). */
  get phase(): number {
    return this.t;
  }

  /** The meshes fading now and which way. */
  fadingMeshes(): IterableIterator<[M, 'in' | 'out']> {
    return this.fading.entries();
  }

  /** How `mesh` draws this frame. */
  stateOf(mesh: M): FadeState {
    const d = this.fading.get(mesh);
    if (!d) return OPAQUE;
    return d === 'in' ? { fade: this.t, complement: false } : { fade: 1 - this.t, complement: true };
  }

  /** Ends the fade: the outgoing meshes hidden (their deferred disposals run), the incoming whole. */
  finish(): void {
    for (const [mesh, d] of this.fading) if (d === 'out') mesh.visible = false;
    this.fading.clear();
    for (const release of this.deferred.values()) release();
    this.deferred.clear();
    this.t = 1;
  }

  /** A fade that began in an earlier frame ends before this commit's. */
  private settle(): void {
    if (this.active && this.startFrame !== this.frame) this.finish();
  }

  private begin(): void {
    this.settle();
    if (!this.active) {
      this.startedAt = this.now();
      this.startFrame = this.frame;
      this.t = 0;
    }
  }
}
