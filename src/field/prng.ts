/**
 * The project's one deterministic pseudo-random number generator. Everything seeded
 * (noise permutation tables, crater placement, scene recipes) draws from here, so the
 * same seed gives the same numbers on every machine: the state is four 32-bit integers
 * updated with `Math.imul` and shifts, no floating point until the final division.
 *
 * Algorithm: sfc32 (Chris Doty-Humphrey's "small fast counter", PractRand-clean), seeded
 * through splitmix32 so that neighbouring seeds (0, 1, 2…) give unrelated streams.
 */

/** A seeded stream of numbers. `next()` is uniform in [0, 1) with 32 random bits. */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** `seed` is reduced to an unsigned 32-bit integer (fractions are dropped). */
  constructor(seed: number) {
    let s = normalizeSeed(seed);
    const mix = (): number => {
      // splitmix32
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    // Discard the first outputs: sfc32's own recommendation for weak seeds.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** Uniform unsigned 32-bit integer. */
  nextUint32(): number {
    const a = this.a, b = this.b, c = this.c, d = this.d;
    const t = (((a + b) | 0) + d) | 0;
    this.d = (d + 1) | 0;
    this.a = b ^ (b >>> 9);
    this.b = (c + (c << 3)) | 0;
    this.c = (((c << 21) | (c >>> 11)) + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Log-uniform in [min, max) (both > 0): sizes spread evenly over decades. */
  logRange(min: number, max: number): number {
    return min * Math.pow(max / min, this.next());
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Integer in [min, max] inclusive. */
  intRange(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** A fresh unsigned 32-bit seed for a sub-stream (a noise layer, a crater field…). */
  seed(): number {
    return this.nextUint32();
  }

  /** Uniformly distributed unit vector, written into `out` (returned). */
  unitVector(out: number[] = [0, 0, 0]): number[] {
    const z = 2 * this.next() - 1;
    const phi = 2 * Math.PI * this.next();
    const r = Math.sqrt(Math.max(0, 1 - z * z));
    out[0] = r * Math.cos(phi);
    out[1] = r * Math.sin(phi);
    out[2] = z;
    return out;
  }
}

/** Reduces any finite number to an unsigned 32-bit seed (non-finite → 0). */
export function normalizeSeed(seed: number): number {
  if (!Number.isFinite(seed)) return 0;
  return Math.trunc(seed) >>> 0;
}

/** A `() => number` in [0, 1), the form `simplex-noise`'s `createNoise3D(random)` expects. */
export function createRandom(seed: number): () => number {
  const prng = new Prng(seed);
  return () => prng.next();
}
