/**
 * JS source for the generated field evaluator's noise (jsCodegen.ts): the fractal sums of
 * noise.ts's `fractal` with simplex-noise's `noise3D`, the `craters` cells and the `terrace` steps
 * inlined on typed-array tables. Every expression is the closures' own, operation for operation
 * and in the same order (JS arithmetic is IEEE double, round to nearest, no fused operations), so
 * the values are bitwise theirs: constants are the same doubles (computed here the way the
 * closures compute them, printed with `lit`, which round-trips), the octave loop is `fractal`'s
 * loop, and the simplex body is the package's (simplex-noise 4.0.3 `createNoise3D`) line for line.
 * Locals start with `_` so they never meet the point's variables.
 */
import type { NoiseKind } from './recipe';
import { CRATER_CELL_PRESENCE, CRATER_CELL_RADIUS, CRATER_EJECTA, CRATER_RIM, OCTAVE_BASE, OCTAVE_SHIFT } from './noise';

/** A double as JS source that parses back to the same double (-0, NaN and infinities included). */
export function lit(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '(-Infinity)';
  if (n === 0) return Object.is(n, -0) ? '(-0)' : '0';
  const s = String(n);
  if (Number(s) !== n) throw new Error(`lit: ${s} does not round-trip`);
  return n < 0 ? `(${s})` : s;
}

/** The package's skew and unskew factors, as it computes them. */
const F3 = 1.0 / 3.0;
const G3 = 1.0 / 6.0;

/** The simplex-noise table names of one noise use: perm (512 bytes) and the three gradient tables. */
export interface NoiseTableNames {
  perm: string;
  gx: string;
  gy: string;
  gz: string;
}

/**
 * Statements that set `out` (declared by the caller) to noise3D(qx, qy, qz) on the tables named
 * `t`: simplex-noise's noise3D, the same operations in the same order, without its branches:
 * - the simplex's corner order (i1 … k2) from three comparisons as bits: the same integers as the
 *   package's if/else tree wherever the comparisons are transitive (no NaN);
 * - a corner out of reach (t < 0) weighs max(t, 0)⁴ = 0 times its gradient term, which is ±0 where
 *   the package adds +0: the sum differs at most in the sign of a zero, and `fractal` adds every
 *   octave to a sum that starts at +0, where +0 + −0 = +0, so no sign of a zero escapes it.
 * Both need finite inputs (0 × ∞ is NaN where the package has 0): the evaluator takes this path
 * only for points it has bounded so that every noise input is finite (jsCodegen.ts `pointLimit`).
 */
export function simplexCode(t: NoiseTableNames, qx: string, qy: string, qz: string, out: string): string {
  const { perm: P, gx: GX, gy: GY, gz: GZ } = t;
  const corner = (n: number, dx: string, dy: string, dz: string, gi: string): string =>
    `let _t${n} = 0.6 - ${dx} * ${dx} - ${dy} * ${dy} - ${dz} * ${dz}; _t${n} = Math.max(_t${n}, 0); _t${n} *= _t${n};
const _g${n} = ${gi}; const _n${n} = _t${n} * _t${n} * (${GX}[_g${n}] * ${dx} + ${GY}[_g${n}] * ${dy} + ${GZ}[_g${n}] * ${dz});`;
  return `{
const _s = (${qx} + ${qy} + ${qz}) * ${lit(F3)};
const _i = Math.floor(${qx} + _s) | 0, _j = Math.floor(${qy} + _s) | 0, _k = Math.floor(${qz} + _s) | 0;
const _t = (_i + _j + _k) * ${lit(G3)};
const _x0 = ${qx} - (_i - _t), _y0 = ${qy} - (_j - _t), _z0 = ${qz} - (_k - _t);
const _a = (_x0 >= _y0) | 0, _b = (_y0 >= _z0) | 0, _c = (_x0 >= _z0) | 0;
const _i1 = _a & _c, _j1 = _b & (_a ^ 1), _k1 = (_b | _c) ^ 1;
const _i2 = _a | _c, _j2 = _b | (_a ^ 1), _k2 = (_b & _c) ^ 1;
const _x1 = _x0 - _i1 + ${lit(G3)}, _y1 = _y0 - _j1 + ${lit(G3)}, _z1 = _z0 - _k1 + ${lit(G3)};
const _x2 = _x0 - _i2 + ${lit(2.0 * G3)}, _y2 = _y0 - _j2 + ${lit(2.0 * G3)}, _z2 = _z0 - _k2 + ${lit(2.0 * G3)};
const _x3 = _x0 - 1.0 + ${lit(3.0 * G3)}, _y3 = _y0 - 1.0 + ${lit(3.0 * G3)}, _z3 = _z0 - 1.0 + ${lit(3.0 * G3)};
const _ii = _i & 255, _jj = _j & 255, _kk = _k & 255;
${corner(0, '_x0', '_y0', '_z0', `_ii + ${P}[_jj + ${P}[_kk]]`)}
${corner(1, '_x1', '_y1', '_z1', `_ii + _i1 + ${P}[_jj + _j1 + ${P}[_kk + _k1]]`)}
${corner(2, '_x2', '_y2', '_z2', `_ii + _i2 + ${P}[_jj + _j2 + ${P}[_kk + _k2]]`)}
${corner(3, '_x3', '_y3', '_z3', `_ii + 1 + ${P}[_jj + 1 + ${P}[_kk + 1]]`)}
${out} = 32.0 * (_n0 + _n1 + _n2 + _n3);
}`;
}

/**
 * Statements that set `out` to noise.ts's craterCell(perm, qx, qy, qz) on the 512-byte table
 * `P` (its first 256 entries are the 256-entry table craterCell reads, every index is `& 255`).
 */
export function craterCellCode(P: string, qx: string, qy: string, qz: string, out: string): string {
  const [r0, r1] = CRATER_CELL_RADIUS;
  return `{
const _fx = Math.floor(${qx}), _fy = Math.floor(${qy}), _fz = Math.floor(${qz});
const _h0 = ${P}[((_fx & 255) + ${P}[((_fy & 255) + ${P}[_fz & 255]) & 255]) & 255];
${out} = 0;
if (!(_h0 >= ${CRATER_CELL_PRESENCE})) {
  const _h1 = ${P}[(_h0 + 71) & 255];
  const _h2 = ${P}[(_h1 + 13) & 255];
  const _h3 = ${P}[(_h2 + 151) & 255];
  const _h4 = ${P}[(_h3 + 97) & 255];
  const _rho = ${lit(r0)} + ${lit(r1 - r0)} * (_h1 / 255);
  const _reach = ${lit(CRATER_EJECTA)} * _rho;
  const _span = 1 - 2 * _reach;
  const _dx = ${qx} - (_fx + _reach + _span * (_h2 / 255));
  const _dy = ${qy} - (_fy + _reach + _span * (_h3 / 255));
  const _dz = ${qz} - (_fz + _reach + _span * (_h4 / 255));
  const _d2 = _dx * _dx + _dy * _dy + _dz * _dz;
  if (!(_d2 >= _reach * _reach)) {
    const _tt = Math.sqrt(_d2) / _rho;
    const _scale = _rho / ${lit(r1)};
    if (_tt < 1) ${out} = _scale * (-1 + ${lit(1 + CRATER_RIM)} * _tt * _tt);
    else { const _e = 1 - (_tt - 1) / ${lit(CRATER_EJECTA - 1)}; ${out} = _scale * ${lit(CRATER_RIM)} * _e * _e; }
  }
}
}`;
}

/** The names of one fractal's numbers in the generated code (K slots, U slot). */
export interface FractalSlots {
  /** Octaves summed (band limit): an Int32 expression. */
  used: string;
  lacunarity: string;
  gain: string;
  /** Σ of every octave's weight, summed in octave order as `fractal` does. */
  norm: string;
}

/** The normaliser `fractal` divides by: every octave's weight, added in order. */
export function fractalNorm(octaves: number, gain: number): number {
  let norm = 0;
  let amp = 1;
  for (let i = 0; i < octaves; i++) {
    norm += amp;
    amp *= gain;
  }
  return norm;
}

/** The fractal block's local aliases of its tables. */
const LOCAL_TABLES: NoiseTableNames = { perm: '_P', gx: '_GX', gy: '_GY', gz: '_GZ' };

/** The name of the generated fractal kernel of a noise kind ({@link fractalKernel}). */
export function fractalKernelName(kind: NoiseKind): string {
  return `F_${kind}`;
}

/**
 * The fractal kernel of a noise kind, a function declaration: `F_<kind>(P, GX, GY, GZ, ux, uy, uz,
 * used, lacunarity, gain, norm)` is fractal(kind, noise, ux, uy, uz, …) with `used` octaves: the
 * octave loop of noise.ts's `fractal` with the noise inlined. One kernel per kind serves every
 * layer (its tables and numbers are arguments), so a program stays small and its hot loops few.
 */
export function fractalKernel(kind: NoiseKind): string {
  const [b0, b1, b2] = OCTAVE_BASE;
  const [s0, s1, s2] = OCTAVE_SHIFT;
  let octave: string;
  if (kind === 'craters') {
    octave = `let _v; ${craterCellCode('_P', '_qx', '_qy', '_qz', '_v')}`;
  } else {
    const v = kind === 'billow'
      ? '_v = 2 * Math.abs(_n) - 1;'
      : kind === 'ridged'
        ? '_v = 1 - Math.abs(_n); _v *= _v; _v *= _w; _w = Math.min(Math.max(_v * 2, 0), 1);'
        : '_v = _n;';
    octave = `let _n; ${simplexCode(LOCAL_TABLES, '_qx', '_qy', '_qz', '_n')}\nlet _v; ${v}`;
  }
  const result = kind === 'terrace'
    ? `const _tr = 4 * (_sum / _norm + 1); const _tk = Math.floor(_tr); const _tq = Math.min(Math.max((_tr - _tk - 0.3) / 0.4, 0), 1); return (_tk + _tq * _tq * (3 - 2 * _tq)) / 4 - 1;`
    : `return _sum / _norm;`;
  return `function ${fractalKernelName(kind)}(_P, _GX, _GY, _GZ, _ux, _uy, _uz, _used, _lac, _gain, _norm) {
let _sum = 0, _amp = 1, _f = 1${kind === 'ridged' ? ', _w = 1' : ''};
for (let _o = 0; _o < _used; _o++) {
const _qx = _ux * _f + ${lit(b0)} + _o * ${lit(s0)};
const _qy = _uy * _f + ${lit(b1)} + _o * ${lit(s1)};
const _qz = _uz * _f + ${lit(b2)} + _o * ${lit(s2)};
${octave}
_sum += _amp * _v;
_amp *= _gain;
_f *= _lac;
}
${result}
}`;
}

/** `out = fractal(...)`: a call of the kind's kernel ({@link fractalKernel}). */
export function fractalCode(kind: NoiseKind, t: NoiseTableNames, ux: string, uy: string, uz: string, s: FractalSlots, out: string): string {
  return `${out} = ${fractalKernelName(kind)}(${t.perm}, ${t.gx}, ${t.gy}, ${t.gz}, ${ux}, ${uy}, ${uz}, ${s.used}, ${s.lacunarity}, ${s.gain}, ${s.norm});`;
}
