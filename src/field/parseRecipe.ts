/**
 * Validation: unknown JSON → FieldRecipe, or a RecipeError naming the bad path.
 *
 * The parsed recipe is a fresh, canonical object (keys in a fixed order, defaults filled
 * in, single noise layers turned into arrays, axes and normals normalised), so the same
 * input always serialises to the same JSON. Nothing of the input object is kept, which
 * also means later mutation of the input cannot reach a compiled field.
 */
import {
  NODE_TYPES,
  NOISE_KINDS,
  RECIPE_LIMITS,
  RECIPE_VERSION,
  SHAPE_TYPES,
  type Brush,
  type CraterField,
  type DomainWarp,
  type FieldNode,
  type FieldRecipe,
  type Modifiers,
  type NoiseKind,
  type NoiseLayer,
  type Vec3,
} from './recipe';

/** The one exception parseRecipe throws. `path` is like `root.children[2].noise.octaves`. */
export class RecipeError extends Error {
  readonly path: string;
  constructor(path: string, problem: string) {
    super(`${path || '(recipe)'}: ${problem}`);
    this.name = 'RecipeError';
    this.path = path;
  }
}

type Json = Record<string, unknown>;

const NAME_RE = /^[A-Za-z0-9 _.\-]*$/;
const L = RECIPE_LIMITS;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isFinite(value) ? `number ${value}` : String(value);
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  return typeof value;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function object(value: unknown, path: string, allowed: readonly string[]): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RecipeError(path, `expected an object, got ${describe(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new RecipeError(join(path, key), `unknown property (allowed here: ${allowed.join(', ')})`);
    }
  }
  return value as Json;
}

interface NumberRule {
  /** Inclusive lower bound. */
  min?: number;
  /** Exclusive lower bound. */
  above?: number;
  max?: number;
  integer?: boolean;
  /** Used when the property is absent. */
  fallback?: number;
}

function numberAt(value: unknown, path: string, rule: NumberRule): number {
  if (typeof value !== 'number') throw new RecipeError(path, `expected a number, got ${describe(value)}`);
  if (!Number.isFinite(value)) throw new RecipeError(path, `must be a finite number, got ${value}`);
  if (rule.integer && !Number.isInteger(value)) throw new RecipeError(path, `must be an integer, got ${value}`);
  if (rule.min !== undefined && value < rule.min) throw new RecipeError(path, `must be ≥ ${rule.min}, got ${value}`);
  if (rule.above !== undefined && !(value > rule.above)) throw new RecipeError(path, `must be > ${rule.above}, got ${value}`);
  if (rule.max !== undefined && value > rule.max) throw new RecipeError(path, `must be ≤ ${rule.max}, got ${value}`);
  return value === 0 ? 0 : value; // -0 → 0 keeps the canonical JSON stable
}

function num(o: Json, key: string, path: string, rule: NumberRule = {}): number {
  const p = join(path, key);
  if (!(key in o) || o[key] === undefined) {
    if (rule.fallback !== undefined) return rule.fallback;
    throw new RecipeError(p, 'missing required number');
  }
  return numberAt(o[key], p, rule);
}

const LENGTH: NumberRule = { min: -L.maxAbsLength, max: L.maxAbsLength };
const POSITIVE_LENGTH: NumberRule = { above: 0, max: L.maxAbsLength };
const SEED: NumberRule = { min: 0, max: 0xffffffff, integer: true };

function vec3(o: Json, key: string, path: string, rule: NumberRule = LENGTH, fallback?: Vec3): Vec3 {
  const p = join(path, key);
  const v = o[key];
  if (v === undefined) {
    if (fallback) return [fallback[0], fallback[1], fallback[2]];
    throw new RecipeError(p, 'missing required [x, y, z]');
  }
  if (!Array.isArray(v) || v.length !== 3) {
    throw new RecipeError(p, `expected an array of 3 numbers, got ${Array.isArray(v) ? `an array of ${v.length}` : describe(v)}`);
  }
  return [numberAt(v[0], `${p}[0]`, rule), numberAt(v[1], `${p}[1]`, rule), numberAt(v[2], `${p}[2]`, rule)];
}

function unit(v: Vec3, path: string): Vec3 {
  const len = Math.hypot(v[0], v[1], v[2]);
  if (!(len > 1e-12)) throw new RecipeError(path, 'must not be the zero vector');
  // Already unit (to rounding): keep the bits, so parsing a parsed recipe changes nothing.
  if (Math.abs(len - 1) <= 8 * Number.EPSILON) return v;
  return [v[0] / len, v[1] / len, v[2] / len];
}

function array(o: Json, key: string, path: string, min: number, max: number): unknown[] {
  const p = join(path, key);
  const v = o[key];
  if (v === undefined) throw new RecipeError(p, 'missing required array');
  if (!Array.isArray(v)) throw new RecipeError(p, `expected an array, got ${describe(v)}`);
  if (v.length < min) throw new RecipeError(p, `needs at least ${min} element${min === 1 ? '' : 's'}, got ${v.length}`);
  if (v.length > max) throw new RecipeError(p, `has ${v.length} elements, more than the limit of ${max}`);
  return v;
}

/** Recipe-wide counters, checked as nodes are parsed. */
interface Budget {
  nodes: number;
  craters: number;
  seeds: Set<number>;
}

function noteSeed(budget: Budget, seed: number, path: string): void {
  budget.seeds.add(seed);
  if (budget.seeds.size > L.maxNoiseTables) {
    throw new RecipeError(path, `more than ${L.maxNoiseTables} distinct noise seeds in one recipe (each is a permutation table)`);
  }
}

const NOISE_KEYS = ['kind', 'seed', 'frequency', 'octaves', 'lacunarity', 'gain', 'amplitude'];

function parseNoiseLayer(value: unknown, path: string, budget: Budget): NoiseLayer {
  const o = object(value, path, NOISE_KEYS);
  const kindPath = join(path, 'kind');
  if (typeof o.kind !== 'string') throw new RecipeError(kindPath, `expected one of ${NOISE_KINDS.join(', ')}, got ${describe(o.kind)}`);
  if (!(NOISE_KINDS as readonly string[]).includes(o.kind)) {
    throw new RecipeError(kindPath, `unknown noise kind ${describe(o.kind)} (expected one of ${NOISE_KINDS.join(', ')})`);
  }
  const layer: NoiseLayer = {
    kind: o.kind as NoiseKind,
    seed: num(o, 'seed', path, SEED),
    frequency: num(o, 'frequency', path, { min: 1e-12, max: 1e3 }),
    octaves: num(o, 'octaves', path, { min: L.minOctaves, max: L.maxOctaves, integer: true }),
    lacunarity: num(o, 'lacunarity', path, { min: 1, max: 8, fallback: 2 }),
    gain: num(o, 'gain', path, { min: 0, max: 1, fallback: 0.5 }),
    amplitude: num(o, 'amplitude', path, LENGTH),
  };
  noteSeed(budget, layer.seed, join(path, 'seed'));
  return layer;
}

function parseWarp(value: unknown, path: string, budget: Budget): DomainWarp {
  const o = object(value, path, ['seed', 'frequency', 'octaves', 'lacunarity', 'gain', 'amplitude']);
  const warp: DomainWarp = {
    seed: num(o, 'seed', path, SEED),
    frequency: num(o, 'frequency', path, { min: 1e-12, max: 1e3 }),
    octaves: num(o, 'octaves', path, { min: L.minOctaves, max: L.maxOctaves, integer: true }),
    lacunarity: num(o, 'lacunarity', path, { min: 1, max: 8, fallback: 2 }),
    gain: num(o, 'gain', path, { min: 0, max: 1, fallback: 0.5 }),
    amplitude: num(o, 'amplitude', path, { min: 0, max: L.maxAbsLength }),
  };
  noteSeed(budget, warp.seed, join(path, 'seed'));
  return warp;
}

function parseCraters(value: unknown, path: string, budget: Budget): CraterField {
  const o = object(value, path, [
    'seed', 'count', 'center', 'sphereRadius', 'radiusMin', 'radiusMax', 'sizeExponent', 'depth', 'rimHeight', 'ejectaFalloff',
  ]);
  const craters: CraterField = {
    seed: num(o, 'seed', path, SEED),
    count: num(o, 'count', path, { min: 0, max: L.maxCraters, integer: true }),
    center: vec3(o, 'center', path, LENGTH, [0, 0, 0]),
    sphereRadius: num(o, 'sphereRadius', path, POSITIVE_LENGTH),
    radiusMin: num(o, 'radiusMin', path, POSITIVE_LENGTH),
    radiusMax: num(o, 'radiusMax', path, POSITIVE_LENGTH),
    sizeExponent: num(o, 'sizeExponent', path, { min: 0, max: 8, fallback: 2 }),
    depth: num(o, 'depth', path, { min: 0, max: 2, fallback: 0.2 }),
    rimHeight: num(o, 'rimHeight', path, { min: 0, max: 1, fallback: 0.05 }),
    ejectaFalloff: num(o, 'ejectaFalloff', path, { min: 0.05, max: 10, fallback: 1 }),
  };
  if (craters.radiusMin < craters.sphereRadius * 1e-6) {
    throw new RecipeError(join(path, 'radiusMin'), `must be ≥ 1e-6 × sphereRadius (${craters.sphereRadius * 1e-6}): smaller craters are below float precision`);
  }
  if (craters.radiusMax < craters.radiusMin) {
    throw new RecipeError(join(path, 'radiusMax'), `must be ≥ radiusMin (${craters.radiusMin}), got ${craters.radiusMax}`);
  }
  budget.craters += craters.count;
  if (budget.craters > L.maxCratersTotal) {
    throw new RecipeError(join(path, 'count'), `more than ${L.maxCratersTotal} craters in one recipe`);
  }
  return craters;
}

const MODIFIER_KEYS = ['noise', 'warp', 'craters'];

function parseModifiers(o: Json, path: string, budget: Budget, target: Modifiers): void {
  if (o.noise !== undefined) {
    const p = join(path, 'noise');
    if (Array.isArray(o.noise)) {
      if (o.noise.length > L.maxNoiseLayersPerNode) {
        throw new RecipeError(p, `has ${o.noise.length} layers, more than the limit of ${L.maxNoiseLayersPerNode}`);
      }
      target.noise = o.noise.map((layer, i) => parseNoiseLayer(layer, `${p}[${i}]`, budget));
    } else {
      target.noise = [parseNoiseLayer(o.noise, p, budget)];
    }
  }
  if (o.warp !== undefined) target.warp = parseWarp(o.warp, join(path, 'warp'), budget);
  if (o.craters !== undefined) target.craters = parseCraters(o.craters, join(path, 'craters'), budget);
}

const NODE_KEYS: Record<FieldNode['type'], readonly string[]> = {
  sphere: ['radius'],
  ellipsoid: ['radii'],
  box: ['halfExtents'],
  roundBox: ['halfExtents', 'radius'],
  torus: ['majorRadius', 'minorRadius'],
  capsule: ['a', 'b', 'radius'],
  plane: ['normal', 'offset'],
  union: ['children'],
  intersection: ['children'],
  subtraction: ['children'],
  smoothUnion: ['blend', 'children'],
  smoothIntersection: ['blend', 'children'],
  smoothSubtraction: ['blend', 'children'],
  translate: ['offset', 'child'],
  rotate: ['axis', 'angleDeg', 'child'],
  scale: ['factor', 'child'],
  shell: ['thickness', 'child'],
};

function parseNode(value: unknown, path: string, depth: number, budget: Budget): FieldNode {
  if (depth > L.maxDepth) throw new RecipeError(path, `nesting too deep (more than ${L.maxDepth} levels)`);
  budget.nodes++;
  if (budget.nodes > L.maxNodes) throw new RecipeError(path, `too many nodes (the limit is ${L.maxNodes})`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RecipeError(path, `expected a node object, got ${describe(value)}`);
  }
  const type = (value as Json).type;
  const typePath = join(path, 'type');
  if (type === undefined) throw new RecipeError(typePath, 'missing required node type');
  if (typeof type !== 'string') throw new RecipeError(typePath, `expected a node type string, got ${describe(type)}`);
  if (!Object.prototype.hasOwnProperty.call(NODE_KEYS, type)) {
    const kind = (SHAPE_TYPES as readonly string[]).includes(type) ? 'shape' : 'shape or operation';
    throw new RecipeError(typePath, `unknown ${kind} ${describe(type)} (expected one of ${NODE_TYPES.join(', ')})`);
  }
  const t = type as FieldNode['type'];
  const o = object(value, path, ['type', ...NODE_KEYS[t], ...MODIFIER_KEYS]);
  const children = (max: number): FieldNode[] =>
    array(o, 'children', path, 1, max).map((c, i) => parseNode(c, `${join(path, 'children')}[${i}]`, depth + 1, budget));
  const child = (): FieldNode => {
    if (o.child === undefined) throw new RecipeError(join(path, 'child'), 'missing required child node');
    return parseNode(o.child, join(path, 'child'), depth + 1, budget);
  };

  let node: FieldNode;
  switch (t) {
    case 'sphere':
      node = { type: t, radius: num(o, 'radius', path, POSITIVE_LENGTH) };
      break;
    case 'ellipsoid':
      node = { type: t, radii: vec3(o, 'radii', path, POSITIVE_LENGTH) };
      break;
    case 'box':
      node = { type: t, halfExtents: vec3(o, 'halfExtents', path, POSITIVE_LENGTH) };
      break;
    case 'roundBox': {
      const halfExtents = vec3(o, 'halfExtents', path, POSITIVE_LENGTH);
      const radius = num(o, 'radius', path, { min: 0, max: Math.min(...halfExtents) });
      node = { type: t, halfExtents, radius };
      break;
    }
    case 'torus':
      node = {
        type: t,
        majorRadius: num(o, 'majorRadius', path, POSITIVE_LENGTH),
        minorRadius: num(o, 'minorRadius', path, POSITIVE_LENGTH),
      };
      break;
    case 'capsule':
      node = { type: t, a: vec3(o, 'a', path), b: vec3(o, 'b', path), radius: num(o, 'radius', path, POSITIVE_LENGTH) };
      break;
    case 'plane':
      node = { type: t, normal: unit(vec3(o, 'normal', path, { min: -1e6, max: 1e6 }), join(path, 'normal')), offset: num(o, 'offset', path, LENGTH) };
      break;
    case 'union':
    case 'intersection':
    case 'subtraction':
      node = { type: t, children: children(L.maxNodes) };
      break;
    case 'smoothUnion':
    case 'smoothIntersection':
    case 'smoothSubtraction': {
      const blend = num(o, 'blend', path, POSITIVE_LENGTH);
      node = { type: t, blend, children: children(L.maxNodes) };
      break;
    }
    case 'translate': {
      const offset = vec3(o, 'offset', path);
      node = { type: t, offset, child: child() };
      break;
    }
    case 'rotate': {
      const axis = unit(vec3(o, 'axis', path, { min: -1e6, max: 1e6 }), join(path, 'axis'));
      const angleDeg = num(o, 'angleDeg', path, { min: -1e6, max: 1e6 });
      node = { type: t, axis, angleDeg, child: child() };
      break;
    }
    case 'scale': {
      const factor = num(o, 'factor', path, { min: 1e-6, max: 1e6 });
      node = { type: t, factor, child: child() };
      break;
    }
    case 'shell': {
      const thickness = num(o, 'thickness', path, POSITIVE_LENGTH);
      node = { type: t, thickness, child: child() };
      break;
    }
  }
  parseModifiers(o, path, budget, node);
  return node;
}

function parseBrush(value: unknown, path: string): Brush {
  const o = object(value, path, ['op', 'center', 'radius', 'blend']);
  const opPath = join(path, 'op');
  if (o.op !== 'add' && o.op !== 'carve') {
    throw new RecipeError(opPath, o.op === undefined ? 'missing required brush op ("add" or "carve")' : `unknown brush op ${describe(o.op)} (expected "add" or "carve")`);
  }
  return {
    op: o.op,
    center: vec3(o, 'center', path),
    radius: num(o, 'radius', path, POSITIVE_LENGTH),
    blend: num(o, 'blend', path, { min: 0, max: L.maxAbsLength, fallback: 0 }),
  };
}

function parseUnchecked(json: unknown): FieldRecipe {
  const o = object(json, '', ['version', 'name', 'root', 'brushes', '$schema']);
  if (o.version !== RECIPE_VERSION) {
    throw new RecipeError('version', o.version === undefined ? `missing required recipe version (${RECIPE_VERSION})` : `unsupported recipe version ${describe(o.version)} (expected ${RECIPE_VERSION})`);
  }
  const recipe: FieldRecipe = { version: RECIPE_VERSION, root: undefined as unknown as FieldNode, brushes: [] };
  if (o.name !== undefined) {
    if (typeof o.name !== 'string') throw new RecipeError('name', `expected a string, got ${describe(o.name)}`);
    if (o.name.length > L.maxNameLength) throw new RecipeError('name', `longer than ${L.maxNameLength} characters`);
    if (!NAME_RE.test(o.name)) throw new RecipeError('name', 'may only hold letters, digits, spaces and _ . -');
    recipe.name = o.name;
  }
  if (o.root === undefined) throw new RecipeError('root', 'missing required root node');
  const budget: Budget = { nodes: 0, craters: 0, seeds: new Set() };
  recipe.root = parseNode(o.root, 'root', 1, budget);
  if (o.brushes !== undefined) {
    recipe.brushes = array(o, 'brushes', '', 0, L.maxBrushes).map((b, i) => parseBrush(b, `brushes[${i}]`));
  }
  // Canonical key order: version, name, root, brushes.
  return recipe.name === undefined
    ? { version: recipe.version, root: recipe.root, brushes: recipe.brushes }
    : { version: recipe.version, name: recipe.name, root: recipe.root, brushes: recipe.brushes };
}

/**
 * Validates untrusted JSON (already `JSON.parse`d) into a canonical FieldRecipe.
 * Throws only RecipeError: anything unexpected (a throwing getter, a Proxy, a stack
 * overflow) is wrapped with the path `(recipe)`.
 */
export function parseRecipe(json: unknown): FieldRecipe {
  try {
    return parseUnchecked(json);
  } catch (err) {
    if (err instanceof RecipeError) throw err;
    throw new RecipeError('', `could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Parses recipe text (JSON); syntax errors become RecipeError too. */
export function parseRecipeText(text: string): FieldRecipe {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new RecipeError('', `is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseRecipe(json);
}
