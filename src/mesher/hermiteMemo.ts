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
 *
 * Layout: an open-addressing table of edge codes (linear probing, at most half full) into packed
 * records — the grid values and normals as float32 (as the mesher holds them), the crossing as
 * float64: ~44 bytes an edge, ~0.2 MB for a 32³ surface chunk.
 */
const EMPTY = -1;

export class HermiteMemo {
  private table = new Int32Array(2048).fill(EMPTY); // slot → record index
  private codes = new Int32Array(1024);
  private f32 = new Float32Array(5 * 1024); // va, vb, nx, ny, nz
  private t = new Float64Array(1024);
  private count = 0;
  /** Edges answered from the memo so far. */
  recalled = 0;

  /** Edges held. */
  get size(): number {
    return this.count;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.table.byteLength + this.codes.byteLength + this.f32.byteLength + this.t.byteLength;
  }

  /** Record index of edge `code`, or the negative (−1 − slot) of the empty slot where it would go. */
  private find(code: number): number {
    const mask = this.table.length - 1;
    let slot = (Math.imul(code, 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const r = this.table[slot];
      if (r === EMPTY) return -1 - slot;
      if (this.codes[r] === code) return r;
      slot = (slot + 1) & mask;
    }
  }

  /**
   * Writes the edge's crossing into `t[e]` and its normal into `n[3 * e ..]` when the memo has edge
   * `code` with end values `va`, `vb`; returns whether it did.
   */
  recall(code: number, va: number, vb: number, t: Float64Array, e: number, n: Float32Array): boolean {
    const r = this.find(code);
    if (r < 0) return false;
    const f = this.f32, o = 5 * r;
    if (f[o] !== va || f[o + 1] !== vb) return false;
    t[e] = this.t[r];
    n[3 * e] = f[o + 2]; n[3 * e + 1] = f[o + 3]; n[3 * e + 2] = f[o + 4];
    this.recalled++;
    return true;
  }

  /** Keeps edge `code`'s crossing and normal as written to `t[e]` and `n[3 * e ..]`. */
  keep(code: number, va: number, vb: number, t: Float64Array, e: number, n: Float32Array): void {
    // Values held as float32 (the planet chunks' samples are): others are not kept.
    if (Math.fround(va) !== va || Math.fround(vb) !== vb) return;
    let r = this.find(code);
    if (r < 0) {
      const slot = -1 - r;
      r = this.count++;
      if (r >= this.codes.length) this.grow();
      this.codes[r] = code;
      this.table[slot] = r;
      if (2 * this.count > this.table.length) this.rehash();
    }
    const f = this.f32, o = 5 * r;
    f[o] = va; f[o + 1] = vb;
    f[o + 2] = n[3 * e]; f[o + 3] = n[3 * e + 1]; f[o + 4] = n[3 * e + 2];
    this.t[r] = t[e];
  }

  private grow(): void {
    const cap = 2 * this.codes.length;
    const codes = new Int32Array(cap); codes.set(this.codes); this.codes = codes;
    const f32 = new Float32Array(5 * cap); f32.set(this.f32); this.f32 = f32;
    const t = new Float64Array(cap); t.set(this.t); this.t = t;
  }

  /** Doubles the table and re-inserts every record (records 0..count−1, the newest included). */
  private rehash(): void {
    this.table = new Int32Array(2 * this.table.length).fill(EMPTY);
    for (let r = 0; r < this.count; r++) this.table[-1 - this.find(this.codes[r])] = r;
  }
}
