/**
 * Crossings and normals that an earlier `meshChunk` of the same chunk found with its field
 * callback, kept for the next mesh of that chunk. A planet chunk is meshed again whenever its
 * coarser neighbours change (its restriction), with the same samples: refining the crossings and
 * taking the normals with the field then costs as much as sampling the chunk did (5–7 field
 * evaluations per sign-changing edge, 80–150 ms for a 32³ surface chunk), for the same answers.
 *
 * An entry is used only when the edge's two grid values are exactly those it was found with (the
 * restriction rewrites boundary values), so a mesh with the memo is bit-identical to one without.
 * Valid for one chunk, one field and one mapping: the caller keys it with them.
 */
const STRIDE = 6; // va, vb, t, nx, ny, nz

export class HermiteMemo {
  private readonly slots = new Map<number, number>();
  private data = new Float64Array(STRIDE * 1024);
  private count = 0;
  /** Edges answered from the memo so far. */
  recalled = 0;

  /** Edges held. */
  get size(): number {
    return this.count;
  }

  /** Bytes held (approximate: the Map's entries counted at 32 B). */
  get bytes(): number {
    return this.data.byteLength + 32 * this.slots.size;
  }

  /**
   * Writes the edge's crossing `t` into `t[0]` and its normal into `n[3 * e ..]` when the memo has
   * edge `code` with end values `va`, `vb`; returns whether it did.
   */
  recall(code: number, va: number, vb: number, t: Float64Array, e: number, n: Float32Array): boolean {
    const s = this.slots.get(code);
    if (s === undefined) return false;
    const d = this.data, o = STRIDE * s;
    if (d[o] !== va || d[o + 1] !== vb) return false;
    t[e] = d[o + 2];
    n[3 * e] = d[o + 3]; n[3 * e + 1] = d[o + 4]; n[3 * e + 2] = d[o + 5];
    this.recalled++;
    return true;
  }

  /** Keeps edge `code`'s crossing and normal as written to `t[e]` and `n[3 * e ..]`. */
  keep(code: number, va: number, vb: number, t: Float64Array, e: number, n: Float32Array): void {
    let s = this.slots.get(code);
    if (s === undefined) {
      s = this.count++;
      if (STRIDE * this.count > this.data.length) {
        const grown = new Float64Array(2 * this.data.length);
        grown.set(this.data);
        this.data = grown;
      }
      this.slots.set(code, s);
    }
    const d = this.data, o = STRIDE * s;
    d[o] = va; d[o + 1] = vb; d[o + 2] = t[e];
    d[o + 3] = n[3 * e]; d[o + 4] = n[3 * e + 1]; d[o + 5] = n[3 * e + 2];
  }
}
