/**
 * Band-limiting a recipe for a sampling lattice (issue 9: planets at coarse LOD levels). A grid of
 * cell c cannot represent features under ~2c: sampled anyway they alias — a planet's 7 m cave shell
 * sampled every 30 m leaves random pockets under the surface, seen as black specks from orbit and
 * black splotches from a few km. `compileToJs(recipe, { minWavelengthM })` drops what is shorter:
 * noise and warp octaves whose wavelength (1 / (frequency · lacunarity^i)) is under the limit
 * (the rest still normalised by all octaves), and shells thinner than it. This module says
 * what that drops and bounds how far the band-limited field can be from the full one.
 */
import type { FieldNode, FieldRecipe, NoiseLayer } from './recipe';

/** How many leading octaves have a wavelength ≥ `minWavelengthM` (all when the limit is 0). */
export function usedOctaves(frequency: number, octaves: number, lacunarity: number, minWavelengthM: number): number {
  if (!(minWavelengthM > 0)) return octaves;
  let used = 0;
  let f = frequency;
  for (let i = 0; i < octaves; i++, f *= lacunarity) {
    if (1 / f < minWavelengthM) break;
    used++;
  }
  return used;
}

/**
 * A shell is dropped when its thickness (half the hollow's width) is under the limit: under two
 * cells at 2 cells per wavelength.
 */
export function shellDropped(thickness: number, minWavelengthM: number): boolean {
  return minWavelengthM > 0 && thickness < minWavelengthM;
}

/**
 * One entry of a band-limited GLSL field's `sr_band` uniform (src/field/glslCodegen.ts
 * `bandUniforms`): a noise layer or warp (value: its used octave count) or a shell (value: 1
 * kept, 0 dropped).
 */
export type BandSlot =
  | { kind: 'octaves'; frequency: number; octaves: number; lacunarity: number }
  | { kind: 'shell'; thickness: number };

/**
 * The `sr_band` uniform's values for a limit: with them the GLSL field is compileToJs(recipe,
 * { minWavelengthM }) (to float32). Writes the first `slots.length` entries of `out` (allocated
 * when absent; RangeError when too short) and returns it.
 */
export function bandSlotValues(slots: readonly BandSlot[], minWavelengthM: number, out?: Int32Array): Int32Array {
  const values = out ?? new Int32Array(slots.length);
  if (values.length < slots.length) throw new RangeError(`bandSlotValues: out holds ${values.length} of ${slots.length} slots`);
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i];
    values[i] = s.kind === 'shell'
      ? (shellDropped(s.thickness, minWavelengthM) ? 0 : 1)
      : usedOctaves(s.frequency, s.octaves, s.lacunarity, minWavelengthM);
  }
  return values;
}

/** Share of a fractal's normalised amplitude in its dropped octaves. */
function droppedShare(octaves: number, used: number, gain: number): number {
  let norm = 0, dropped = 0, amp = 1;
  for (let i = 0; i < octaves; i++, amp *= gain) {
    norm += amp;
    if (i >= used) dropped += amp;
  }
  return norm > 0 ? dropped / norm : 0;
}

export interface BandLimitSummary {
  /** Octaves used per noise layer and warp, and shells dropped, in tree order: equal strings, equal fields. */
  signature: string;
  /** Anything dropped at all. */
  changed: boolean;
  /** A shell was dropped: material it would carve (or add) is missing, unbounded by `noiseBoundM`. */
  shellsDropped: boolean;
  /**
   * Bound on |band-limited − full| from dropped noise octaves, metres: Σ |amplitude| × dropped share
   * (fractal terms are within [-1, 1]), plus each dropped warp share × its amplitude × `lipschitz`.
   */
  noiseBoundM: number;
}

export function bandLimitSummary(recipe: FieldRecipe, minWavelengthM: number, lipschitz: number): BandLimitSummary {
  const parts: string[] = [];
  let bound = 0, changed = false, shells = false;
  const layer = (l: NoiseLayer, scale: number): void => {
    const used = usedOctaves(l.frequency, l.octaves, l.lacunarity, minWavelengthM);
    parts.push(String(used));
    if (used < l.octaves) {
      changed = true;
      bound += scale * Math.abs(l.amplitude) * droppedShare(l.octaves, used, l.gain);
    }
  };
  const visit = (node: FieldNode, shellGone: boolean): void => {
    if (node.type === 'shell' && shellDropped(node.thickness, minWavelengthM)) {
      parts.push('shell-');
      changed = shells = true;
      shellGone = true;
    }
    if (!shellGone) {
      for (const l of node.noise ?? []) layer(l, 1);
      if (node.warp && node.warp.amplitude > 0) layer({ kind: 'fbm', ...node.warp }, lipschitz);
    }
    if ('children' in node) for (const c of node.children) visit(c, shellGone);
    if ('child' in node) visit(node.child, shellGone);
  };
  visit(recipe.root, false);
  return { signature: parts.join(','), changed, shellsDropped: shells, noiseBoundM: bound };
}
