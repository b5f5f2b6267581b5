/**
 * Module-level scratch buffers of the chunk mesher, by name, reused across calls (house style 16: no
 * allocation per call in hot paths). meshChunk is synchronous, so one set per thread is enough;
 * nothing that leaves meshChunk points into them (results are sliced copies). A buffer keeps the size
 * of the largest chunk meshed on its thread (docs/mesher.md, "Measured").
 */

export const now: () => number =
  typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/** `a`, or a copy of it at least `need` long (doubling), of the same type. */
export function grow<T extends Float64Array<ArrayBuffer> | Float32Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Int32Array<ArrayBuffer>>(a: T, need: number): T {
  if (need <= a.length) return a;
  const b = new (a.constructor as new (length: number) => T)(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

const scratch = new Map<string, Uint8Array | Int32Array | Float32Array | Float64Array>();

/**
 * The scratch buffer `name`, at least `n` long: the one held when it is long enough, else a new one
 * of max(n, twice the old length), holding the old contents when `keep`. Contents are otherwise
 * whatever the last user left: callers write before they read.
 */
export function scratchOf<T extends Uint8Array | Int32Array | Float32Array | Float64Array>(
  name: string, n: number, keep: boolean, make: (n: number) => T,
): T {
  const old = scratch.get(name) as T | undefined;
  if (old && old.length >= n) return old;
  const b = make(Math.max(n, old ? old.length * 2 : 0));
  if (keep && old) b.set(old);
  scratch.set(name, b);
  return b;
}
export const scratchU8 = (name: string, n: number, keep = false): Uint8Array => scratchOf(name, n, keep, (m) => new Uint8Array(m));
export const scratchI32 = (name: string, n: number, keep = false): Int32Array => scratchOf(name, n, keep, (m) => new Int32Array(m));
export const scratchF32 = (name: string, n: number, keep = false): Float32Array => scratchOf(name, n, keep, (m) => new Float32Array(m));
export const scratchF64 = (name: string, n: number, keep = false): Float64Array => scratchOf(name, n, keep, (m) => new Float64Array(m));
