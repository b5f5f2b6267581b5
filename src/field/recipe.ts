/**
 * FieldRecipe: a body's shape as plain JSON data (see docs/recipes.md and
 * assets/recipes/schema.json). Signed field, negative inside, positive outside, metres.
 *
 * Every length is in metres and every angle in degrees (`angleDeg`); the JSON keeps short
 * names (`radius`, `offset`) because the whole format has one unit per quantity.
 */

export type Vec3 = [number, number, number];

export const RECIPE_VERSION = 1;

/** Validation limits (parseRecipe rejects anything beyond them). */
export const RECIPE_LIMITS = {
  maxDepth: 24,
  maxNodes: 256,
  minOctaves: 1,
  maxOctaves: 12,
  maxNoiseLayersPerNode: 8,
  /** Distinct noise seeds per recipe: each becomes one permutation table in GLSL. */
  maxNoiseTables: 16,
  maxCraters: 256,
  /** Total craters over all crater fields of a recipe (each is one loop step per evaluation). */
  maxCratersTotal: 512,
  maxBrushes: 256,
  /** Largest magnitude accepted for any length (m): 1e9 m is ~150 planet radii. */
  maxAbsLength: 1e9,
  maxNameLength: 64,
} as const;

// ---------------------------------------------------------------------------------------
// Modifiers (may be attached to any node)

export type NoiseKind = 'fbm' | 'ridged' | 'billow' | 'craters' | 'terrace';

/**
 * One fractal noise layer, added to its node's value (subtracted, so positive noise
 * raises the surface): `value -= amplitude * fractal(p * frequency)`.
 * fbm and billow are normalised to about [-1, 1], ridged to [0, 1]; `craters` (a cellular field
 * of bowls with rims, one octave per crater size) to [-1, 0.25], `terrace` (fbm cut into eight
 * flat steps with steep risers) to [-1, 1]. See docs/recipes.md.
 */
export interface NoiseLayer {
  kind: NoiseKind;
  /** Unsigned 32-bit integer: selects the permutation table. */
  seed: number;
  /** Cycles per metre of the first octave. */
  frequency: number;
  octaves: number;
  /** Frequency ratio between octaves (default 2). */
  lacunarity: number;
  /** Amplitude ratio between octaves (default 0.5). */
  gain: number;
  /** Metres; may be negative (ridged with negative amplitude carves canyons). */
  amplitude: number;
}

/** Domain warp: the node is evaluated at `p + amplitude * fbm3(p * frequency)`. */
export interface DomainWarp extends Omit<NoiseLayer, 'kind' | 'amplitude'> {
  /** Metres, ≥ 0: the largest displacement of the evaluation point. */
  amplitude: number;
}

/**
 * A seeded crater field on the directions around `center`: craters are placed uniformly
 * on the sphere of radius `sphereRadius` (the body's nominal radius), with radii from a
 * truncated power law, and act as a height field on that sphere.
 */
export interface CraterField {
  seed: number;
  count: number;
  /** Metres (body-local). */
  center: Vec3;
  /** Nominal body radius used to turn crater radii into angles (m). */
  sphereRadius: number;
  radiusMin: number;
  radiusMax: number;
  /** Power-law exponent of the size distribution, N(>r) ∝ r^-sizeExponent (≥ 0; 0 = log-uniform). */
  sizeExponent: number;
  /** Bowl depth as a fraction of the crater radius. */
  depth: number;
  /** Rim height as a fraction of the crater radius. */
  rimHeight: number;
  /** Ejecta blanket width beyond the rim, in crater radii. */
  ejectaFalloff: number;
}

export interface Modifiers {
  /** Fractal noise layers, summed. */
  noise?: NoiseLayer[];
  warp?: DomainWarp;
  craters?: CraterField;
}

// ---------------------------------------------------------------------------------------
// Shapes

export interface SphereNode extends Modifiers {
  type: 'sphere';
  radius: number;
}
/** Axis-aligned ellipsoid (Quílez's bound, exact on the axes). */
export interface EllipsoidNode extends Modifiers {
  type: 'ellipsoid';
  radii: Vec3;
}
/** Axis-aligned box with half extents `halfExtents`. */
export interface BoxNode extends Modifiers {
  type: 'box';
  halfExtents: Vec3;
}
/** Box of outer half extents `halfExtents` whose edges are rounded with `radius`. */
export interface RoundBoxNode extends Modifiers {
  type: 'roundBox';
  halfExtents: Vec3;
  radius: number;
}
/** Torus around the y axis. */
export interface TorusNode extends Modifiers {
  type: 'torus';
  majorRadius: number;
  minorRadius: number;
}
/** Segment a–b swept by a sphere of `radius`. */
export interface CapsuleNode extends Modifiers {
  type: 'capsule';
  a: Vec3;
  b: Vec3;
  radius: number;
}
/** Half-space `dot(p, normal) - offset ≤ 0` (normal is normalised by parseRecipe). */
export interface PlaneNode extends Modifiers {
  type: 'plane';
  normal: Vec3;
  offset: number;
}

export type ShapeNode =
  | SphereNode
  | EllipsoidNode
  | BoxNode
  | RoundBoxNode
  | TorusNode
  | CapsuleNode
  | PlaneNode;

// ---------------------------------------------------------------------------------------
// Operations

/** union = min, intersection = max, subtraction = children[0] minus all the others. */
export interface CsgNode extends Modifiers {
  type: 'union' | 'intersection' | 'subtraction';
  children: FieldNode[];
}
/** Polynomial smooth min/max (Quílez) with blend radius `blend` (m, > 0). */
export interface SmoothCsgNode extends Modifiers {
  type: 'smoothUnion' | 'smoothIntersection' | 'smoothSubtraction';
  blend: number;
  children: FieldNode[];
}
export interface TranslateNode extends Modifiers {
  type: 'translate';
  offset: Vec3;
  child: FieldNode;
}
/** Rotation of the child by `angleDeg` about `axis` (normalised by parseRecipe). */
export interface RotateNode extends Modifiers {
  type: 'rotate';
  axis: Vec3;
  angleDeg: number;
  child: FieldNode;
}
/** Uniform scale (non-uniform scaling would break the distance property: use an ellipsoid). */
export interface ScaleNode extends Modifiers {
  type: 'scale';
  factor: number;
  child: FieldNode;
}
/** Hollow shell of the child's surface: `abs(child) - thickness`. */
export interface ShellNode extends Modifiers {
  type: 'shell';
  thickness: number;
  child: FieldNode;
}

export type OpNode = CsgNode | SmoothCsgNode | TranslateNode | RotateNode | ScaleNode | ShellNode;

export type FieldNode = ShapeNode | OpNode;
export type FieldNodeType = FieldNode['type'];

export const SHAPE_TYPES = ['sphere', 'ellipsoid', 'box', 'roundBox', 'torus', 'capsule', 'plane'] as const;
export const CSG_TYPES = ['union', 'intersection', 'subtraction'] as const;
export const SMOOTH_CSG_TYPES = ['smoothUnion', 'smoothIntersection', 'smoothSubtraction'] as const;
export const UNARY_TYPES = ['translate', 'rotate', 'scale', 'shell'] as const;
export const NODE_TYPES: readonly FieldNodeType[] = [
  ...SHAPE_TYPES,
  ...CSG_TYPES,
  ...SMOOTH_CSG_TYPES,
  ...UNARY_TYPES,
];
export const NOISE_KINDS: readonly NoiseKind[] = ['fbm', 'ridged', 'billow', 'craters', 'terrace'];

// ---------------------------------------------------------------------------------------
// Brushes and the recipe

/**
 * Run-time edit, applied in order after the root: `add` = (smooth) union with the
 * sphere, `carve` = (smooth) subtraction of it. `blend` 0 means a sharp edge.
 */
export interface Brush {
  op: 'add' | 'carve';
  center: Vec3;
  radius: number;
  blend: number;
}

export interface FieldRecipe {
  version: 1;
  /** Free label (letters, digits, space, `_ . -`); never reaches generated code. */
  name?: string;
  root: FieldNode;
  brushes: Brush[];
}
