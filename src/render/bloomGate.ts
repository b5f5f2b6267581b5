/**
 * Bloom only where something is bright enough to bloom (src/render/bloom.ts). Most frames under a
 * day sky or over lit ground have no pixel over the threshold (rock in full sun ≈ 1, the threshold
 * 2.5): the high pass is black and the blur chain — ten half-size-and-smaller passes and the
 * composite, 0.4 ms of the H100's 7 ms at 20 m over planet 4 — blurs black. The high pass discards
 * what is under the threshold and runs inside an occlusion query; while the newest answer says no
 * sample passed, the blur chain is skipped and the output pass adds nothing.
 *
 * Answers come a frame or more late (a query's result is read only once the GPU has finished it,
 * and never in the frame that issued it), so:
 * - black → bright (the sun turns into view) blooms one to a few frames late; bright → black
 *   blurs black for as long;
 * - with no answer yet, or none for {@link MAX_LAG_FRAMES} frames (a lost context; a driver that
 *   holds results back), it blurs: missing an answer never drops a glow;
 * - the caller says which frames continue the last one: a screenshot's tiles and the gallery's
 *   thumbnails draw other views between the app's frames, so they {@link BloomGate.reset} it and
 *   always blur.
 *
 * The queries go through a {@link QueryBackend} (WebGL2 occlusion queries in bloom.ts; a fake in
 * test/render/bloomGate.test.ts).
 */

/** What the gate needs of a GPU query API. */
export interface QueryBackend<Q> {
  /** A new query, or null where none can be made (the gate then blurs every frame). */
  create(): Q | null;
  begin(query: Q): void;
  end(): void;
  /** Whether the result can be read without waiting. */
  available(query: Q): boolean;
  /** Whether any sample passed (read only once available). */
  anyPassed(query: Q): boolean;
  delete(query: Q): void;
}

/** With no answer for this many frames the gate blurs again (and drops the queries it waits on). */
export const MAX_LAG_FRAMES = 6;
/** Queries in flight at most; past it frames are not measured until answers come. */
const MAX_PENDING = 4;

export interface BloomGateStats {
  /** Frames whose blur chain ran, and frames it was skipped (nothing over the threshold). */
  blurred: number;
  skipped: number;
}

export class BloomGate<Q> {
  readonly stats: BloomGateStats = { blurred: 0, skipped: 0 };
  private readonly pending: { query: Q; frame: number }[] = [];
  /** The newest answer: whether some pixel was over the threshold (null: none yet). */
  private bright: boolean | null = null;
  private frame = 0;

  constructor(private readonly backend: QueryBackend<Q>) {}

  /**
   * Starts a frame that continues the last one: reads the answers that arrived and says whether
   * this frame's blur chain runs.
   */
  beginFrame(): boolean {
    this.frame++;
    while (this.pending.length > 0 && this.backend.available(this.pending[0].query)) {
      const { query } = this.pending.shift()!;
      this.bright = this.backend.anyPassed(query);
      this.backend.delete(query);
    }
    if (this.pending.length > 0 && this.frame - this.pending[0].frame > MAX_LAG_FRAMES) this.reset();
    const blur = this.bright !== false;
    if (blur) this.stats.blurred++;
    else this.stats.skipped++;
    return blur;
  }

  /** Runs `draw` (the high pass) inside a query whose answer a later frame reads. */
  measure(draw: () => void): void {
    const query = this.pending.length < MAX_PENDING ? this.backend.create() : null;
    if (query === null) {
      draw();
      return;
    }
    this.backend.begin(query);
    try {
      draw();
    } finally {
      this.backend.end();
    }
    this.pending.push({ query, frame: this.frame });
  }

  /** Forgets every answer and drops the queries in flight: the next frames blur until one comes. */
  reset(): void {
    for (const { query } of this.pending) this.backend.delete(query);
    this.pending.length = 0;
    this.bright = null;
  }
}

/** WebGL2's occlusion queries (ANY_SAMPLES_PASSED_CONSERVATIVE: a false "passed" only blurs black). */
export function webglQueryBackend(gl: WebGL2RenderingContext): QueryBackend<WebGLQuery> {
  const target = gl.ANY_SAMPLES_PASSED_CONSERVATIVE;
  return {
    create: () => (gl.isContextLost() ? null : gl.createQuery()),
    begin: (q) => gl.beginQuery(target, q),
    end: () => gl.endQuery(target),
    // A lost context answers null: never available (the gate's lag limit then blurs).
    available: (q) => gl.getQueryParameter(q, gl.QUERY_RESULT_AVAILABLE) === true,
    // 0 or 1 (a GLuint; some implementations answer a boolean); null from a lost context: passed.
    anyPassed: (q) => {
      const result: unknown = gl.getQueryParameter(q, gl.QUERY_RESULT);
      return result === null || Boolean(result);
    },
    // A query of a lost context is no longer this context's: nothing to delete.
    delete: (q) => {
      if (gl.isQuery(q)) gl.deleteQuery(q);
    },
  };
}
