/**
 * The field compiler's node stage (glslCodegen.ts runs it, then adds the header and `sr_field`):
 * one GLSL function per node, children first, with its modifiers, crater lists and shared modifier
 * groups. Everything emitted goes into an {@link EmitState}, in the order GLSL needs it (a function
 * before its callers).
 *
 * Per node `sr_nI`: `sr_nI_base(p)` is the shape or operation, `sr_nI(p)` applies the modifiers in
 * the order of compileJs.ts (warp the point, then base − craters − noise), or reads them from its
 * shared group `sr_mG` (see glslCodegen.ts). Band slots are taken in tree pre-order (a node's
 * shell, its noise layers, its warp, then its children's), as bandLimitSummary visits the tree.
 */
import type { BandSlot } from './bandLimit';
import { splitFloat32, type RelativePlan } from './chunkRelative';
import { modifierKey } from './compileJs';
import { CRATER_STRIDE, placeCraters } from './craters';
import {
  craterGradFunction, csgGradBody, differenceGradBody, modifierGradBody, rotateGradBody, scaleGradBody, SHAPE_STEP, shellGradBody,
  translateGradBody, type NoiseTexts, type WarpTexts,
} from './glslGradient';
import { glslFloat, glslInt, glslVec3, GlslCodegenError } from './glslLiterals';
import { int, listCapacity, num, vec3, vec4Block } from './glslParams';
import { WARP_OFFSETS } from './noise';
import type { CraterField, FieldNode, NoiseKind, NoiseLayer } from './recipe';
import { rotationMatrix } from './transform';

const KIND_CONSTANT: Record<NoiseKind, string> = {
  fbm: 'SR_NOISE_FBM',
  ridged: 'SR_NOISE_RIDGED',
  billow: 'SR_NOISE_BILLOW',
  craters: 'SR_NOISE_CRATERS',
  terrace: 'SR_NOISE_TERRACE',
};

/**
 * compileJs.ts's DROPPED_SHELL (a band-limited-away shell's value: far outside, the identity of
 * union and subtraction), kept equal by test/field/bandUniforms.test.ts.
 */
const DROPPED_SHELL = 1e30;
/** The compiler's own constant, not recipe data: a literal in either mode. */
const GLSL_DROPPED_SHELL = glslFloat(DROPPED_SHELL);

/** What the node stage accumulates while it walks the tree. */
export interface EmitState {
  /**
   * The recipe's numbers as data (GlslCodegenOptions.numbersAsData): their values in `sr_params`
   * order (glslParams.ts); null: literals in the code.
   */
  readonly params: number[] | null;
  /** Band limit as the `sr_band` uniform (GlslCodegenOptions.bandUniforms). */
  readonly band: boolean;
  /** Each node's gradient function `sr_nI_g` too (GlslCodegenOptions.gradient, glslGradient.ts). */
  readonly gradient: boolean;
  /** Modifier keys whose nodes share one evaluation (glslCodegen.ts `sharedModifierKeys`). */
  readonly shared: ReadonlySet<string>;
  /** Emitted GLSL declarations and functions, in order. */
  readonly functions: string[];
  readonly bandSlots: BandSlot[];
  /** Distinct noise seeds, in permutation table order. */
  readonly seeds: number[];
  /** Shared modifier groups emitted so far: key → group id. */
  readonly groups: Map<string, number>;
  nodeCount: number;
  /**
   * Chunk-relative (GlslCodegenOptions.chunkRelative, chunkRelative.ts): `p` is the point from the
   * chunk's origin, and what needs the origin is read per chunk; this plan lists those reads as they
   * are emitted. null: `p` is body-local.
   */
  readonly relative: RelativePlan | null;
  /** Crater functions emitted so far (the next one's id). */
  craterFields: number;
  /** Craters in all crater functions. */
  craterCount: number;
}

export function createEmitState(band: boolean, shared: ReadonlySet<string>, numbersAsData = false, gradient = false, relative = false): EmitState {
  return {
    params: numbersAsData ? [] : null, band, gradient, shared, functions: [], bandSlots: [], seeds: [], groups: new Map(), nodeCount: 0, craterFields: 0, craterCount: 0,
    relative: relative ? { noise: [], craterCenters: [] } : null,
  };
}

/**
 * Chunk-relative: the first `sr_relOrigin` row of a new noise use (a layer, or a warp component with
 * its noise-space `offset`), whose octaves take the rows after it.
 */
function relativeRows(plan: RelativePlan, use: { frequency: number; octaves: number; lacunarity: number }, offset: readonly number[] = [0, 0, 0]): string {
  const first = plan.noise.reduce((n, u) => n + u.octaves, 0);
  plan.noise.push({ frequency: use.frequency, offset: [offset[0], offset[1], offset[2]], octaves: use.octaves, lacunarity: use.lacunarity });
  return glslInt(first);
}

/**
 * Whether a warp or a crater field is emitted. With numbers as data, whenever the recipe has one:
 * its amplitude or count is data, so a recipe whose warp does nothing has the shape of one whose
 * warp does (asteroid families share shapes that way). Otherwise only when it changes the field.
 */
function hasWarp(state: EmitState, w: FieldNode['warp']): w is NonNullable<FieldNode['warp']> {
  return !!w && (state.params !== null || w.amplitude > 0);
}

function hasCraters(state: EmitState, c: FieldNode['craters']): c is NonNullable<FieldNode['craters']> {
  return !!c && (state.params !== null || c.count > 0);
}

/** A noise kind: its constant, or (numbers as data) its code as data (the values of glsl/sr_noise.glsl). */
function noiseKind(state: EmitState, kind: NoiseKind): string {
  return state.params ? int(state, KIND_CODE[kind]) : KIND_CONSTANT[kind];
}

const KIND_CODE: Record<NoiseKind, number> = { fbm: 0, ridged: 1, billow: 2, craters: 3, terrace: 4 };

/** `sr_band[k]` for a new slot. */
function bandSlot(state: EmitState, s: BandSlot): string {
  state.bandSlots.push(s);
  return `sr_band[${glslInt(state.bandSlots.length - 1)}]`;
}

/**
 * The permutation table index of a noise seed (a new table for a new seed). With numbers as data
 * every noise use has its own table: which uses share a seed is a fact about the numbers.
 */
function noiseTable(state: EmitState, seed: number): string {
  let i = state.params ? -1 : state.seeds.indexOf(seed);
  if (i < 0) {
    i = state.seeds.length;
    state.seeds.push(seed);
  }
  return glslInt(i);
}

/** Emits a crater field's lists and `sr_craters_k(p)`; returns the function's name. */
function emitCraters(state: EmitState, field: CraterField): string {
  const id = state.craterFields++;
  const data = placeCraters(field);
  const n = field.count;
  state.craterCount += n;
  const e = field.ejectaFalloff;
  const [cx, cy, cz] = field.center;

  let list: { decl: string[]; loop: string; read: string };
  if (state.params) {
    // Two vec4 a crater, (dir, (R/r)^2) and (depth m, rim m, 0, 0), in a list of a capacity that
    // many counts share; the loop runs to the count.
    const capacity = listCapacity(n);
    const values: number[] = [];
    for (let i = 0; i < n; i++) {
      const o = i * CRATER_STRIDE;
      values.push(data[o], data[o + 1], data[o + 2], data[o + 3], data[o + 4], data[o + 5], 0, 0);
    }
    const base = vec4Block(state as EmitState & { params: number[] }, 2 * capacity, values);
    list = {
      decl: [],
      loop: `  int sr_count = ${int(state, n)};
  for (int i = 0; i < sr_count; i++) {`,
      read: `    vec4 sr_a = sr_params[${glslInt(base)} + 2 * i];
    vec4 sr_b = sr_params[${glslInt(base + 1)} + 2 * i];
    vec3 dd = n - sr_a.xyz;
    vec3 k = vec3(sr_a.w, sr_b.x, sr_b.y);`,
    };
  } else {
    const dirs: string[] = [];
    const params: string[] = [];
    for (let i = 0; i < n; i++) {
      const o = i * CRATER_STRIDE;
      dirs.push(vec3(state, data[o], data[o + 1], data[o + 2]));
      params.push(vec3(state, data[o + 3], data[o + 4], data[o + 5]));
    }
    list = {
      decl: [
        `const vec3 SR_CRATER_DIR_${id}[${glslInt(n)}] = vec3[](\n  ${dirs.join(',\n  ')});`,
        `// (R/r)^2, depth m, rim m`,
        `const vec3 SR_CRATER_K_${id}[${glslInt(n)}] = vec3[](\n  ${params.join(',\n  ')});`,
      ],
      loop: `  for (int i = 0; i < ${glslInt(n)}; i++) {`,
      read: `    vec3 dd = n - SR_CRATER_DIR_${id}[i];
    vec3 k = SR_CRATER_K_${id}[i];`,
    };
  }
  // After the list, in the order the value function has always taken them (with numbers as data
  // the order is the parameters' layout); the gradient function reuses them.
  // Chunk-relative: the point from the centre is (O − c) + l, O − c formed per chunk in float64.
  const center = vec3(state, cx, cy, cz);
  let fromCenter = `p - ${center}`;
  if (state.relative) {
    fromCenter = `p + sr_relCrater[${glslInt(state.relative.craterCenters.length)}]`;
    state.relative.craterCenters.push([cx, cy, cz]);
  }
  const reach = num(state, (1 + e) * (1 + e));
  const falloff = num(state, 1 / e);
  state.functions.push(
    ...list.decl,
    `float sr_craters_${id}(vec3 p) {
  vec3 d = ${fromCenter};
  float len = length(d);
  if (!(len > 0.0)) return 0.0;
  vec3 n = d / len;
  float raised = 0.0;
  float lowered = 0.0;
${list.loop}
${list.read}
    float x2 = dot(dd, dd) * k.x;
    if (x2 >= ${reach}) continue;
    float h;
    if (x2 < 1.0) {
      h = -k.y + (k.y + k.z) * x2;
    } else {
      float t = 1.0 - (sqrt(x2) - 1.0) * ${falloff};
      h = k.z * t * t;
    }
    raised = max(raised, h);
    lowered = min(lowered, h);
  }
  return raised + lowered;
}`,
  );
  if (state.gradient) state.functions.push(craterGradFunction(`sr_craters_${id}_g`, center, reach, falloff, list.loop, list.read));
  return `sr_craters_${id}`;
}

/** The bodies (value, gradient) of a CSG node over its children's functions `names`. */
function csgBody(state: EmitState, node: FieldNode & { children: FieldNode[] }, names: string[]): Bodies {
  const k = 'blend' in node ? num(state, node.blend as number) : '';
  const lines = [`  float d = ${names[0]}(p);`];
  for (const name of names.slice(1)) {
    switch (node.type) {
      case 'union': lines.push(`  d = min(d, ${name}(p));`); break;
      case 'intersection': lines.push(`  d = max(d, ${name}(p));`); break;
      case 'subtraction': lines.push(`  d = max(d, -${name}(p));`); break;
      case 'smoothUnion': lines.push(`  d = sr_smin(d, ${name}(p), ${k});`); break;
      case 'smoothIntersection': lines.push(`  d = sr_smax(d, ${name}(p), ${k});`); break;
      case 'smoothSubtraction': lines.push(`  d = sr_smax(d, -${name}(p), ${k});`); break;
      default: throw new GlslCodegenError(`not a CSG node: ${node.type}`);
    }
  }
  lines.push('  return d;');
  return { value: lines.join('\n'), grad: state.gradient ? csgGradBody(node.type, names, k) : '' };
}

/** A node function's body, and its gradient function's ('' without GlslCodegenOptions.gradient). */
interface Bodies {
  value: string;
  grad: string;
}

/** The body of a shape node. */
function shapeBody(state: EmitState, node: FieldNode): string {
  switch (node.type) {
    case 'sphere': {
      if (!state.relative) return `  return length(p) - ${num(state, node.radius)};`;
      const [high, low] = splitFloat32(node.radius);
      return `  return sr_relSphere(p, ${glslFloat(high)}, ${glslFloat(low)});`;
    }
    case 'ellipsoid': {
      const [a, b, c] = node.radii;
      return `  float k0 = length(p / ${vec3(state, a, b, c)});
  float k1 = length(p / ${vec3(state, a * a, b * b, c * c)});
  return k1 > 0.0 ? k0 * (k0 - 1.0) / k1 : ${num(state, -Math.min(a, b, c))};`;
    }
    case 'box':
    case 'roundBox': {
      const r = node.type === 'roundBox' ? node.radius : 0;
      const h = node.halfExtents;
      return `  vec3 q = abs(p) - ${vec3(state, h[0] - r, h[1] - r, h[2] - r)};
  return length(max(q, 0.0)) + min(max(q.x, max(q.y, q.z)), 0.0) - ${num(state, r)};`;
    }
    case 'torus':
      return `  vec2 q = vec2(length(p.xz) - ${num(state, node.majorRadius)}, p.y);
  return length(q) - ${num(state, node.minorRadius)};`;
    case 'capsule': {
      const [ax, ay, az] = node.a;
      const ba = [node.b[0] - ax, node.b[1] - ay, node.b[2] - az];
      const bb = ba[0] * ba[0] + ba[1] * ba[1] + ba[2] * ba[2];
      return `  vec3 pa = p - ${vec3(state, ax, ay, az)};
  vec3 ba = ${vec3(state, ba[0], ba[1], ba[2])};
  float h = clamp(dot(pa, ba) * ${num(state, bb > 0 ? 1 / bb : 0)}, 0.0, 1.0);
  return length(pa - ba * h) - ${num(state, node.radius)};`;
    }
    case 'plane':
      return `  return dot(p, ${vec3(state, ...node.normal)}) - ${num(state, node.offset)};`;
    default:
      throw new GlslCodegenError(`not a shape: ${node.type}`);
  }
}

/** A warp's texts (its numbers' expressions, taken once: with numbers as data each is a new slot). */
function warpTexts(state: EmitState, w: NonNullable<FieldNode['warp']>): WarpTexts {
  const args = `${noiseTable(state, w.seed)}, ${int(state, w.octaves)}, ${num(state, w.lacunarity)}, ${num(state, w.gain)}`;
  const offsets = WARP_OFFSETS.map((o) => glslVec3(o[0], o[1], o[2])) as [string, string, string];
  const relative = state.relative;
  const rows = relative ? WARP_OFFSETS.map((o) => relativeRows(relative, w, o)) as [string, string, string] : undefined;
  return { frequency: num(state, w.frequency), amplitude: num(state, w.amplitude), args, offsets, mayBeZero: state.params !== null, relativeRows: rows };
}

/** The lines that warp `p` in place (a node's warp, `warpBand`: its slot or ''). */
function warpLines(t: WarpTexts, warpBand: string): string[] {
  const fractal = warpBand ? 'sr_fractalBand' : 'sr_fractal';
  // The band slot goes after the octave count: table, octaves, used, lacunarity, gain.
  const args = warpBand ? t.args.replace(/^([^,]+, [^,]+), /, `$1, ${warpBand}, `) : t.args;
  const [o0, o1, o2] = t.offsets;
  // A warp of amplitude 0 (numbers as data) adds exactly 0: skipped, three noise sums fewer.
  const guard = t.mayBeZero ? `if (${t.amplitude} != 0.0) ` : '';
  if (t.relativeRows) {
    // Chunk-relative: each component's offset is in its octave origins.
    const rel = `${fractal}Rel`;
    return [
      `  vec3 u = p * ${t.frequency};`,
      `  ${guard}p += ${t.amplitude} * vec3(`,
      ...t.relativeRows.map((first, c) => `    ${rel}(SR_NOISE_FBM, u, ${args}, ${first})${c < 2 ? ',' : ');'}`),
    ];
  }
  return [
    `  vec3 u = p * ${t.frequency};`,
    `  ${guard}p += ${t.amplitude} * vec3(`,
    `    ${fractal}(SR_NOISE_FBM, u + ${o0}, ${args}),`,
    `    ${fractal}(SR_NOISE_FBM, u + ${o1}, ${args}),`,
    `    ${fractal}(SR_NOISE_FBM, u + ${o2}, ${args}));`,
  ];
}

/** A noise layer's texts, taken once (see warpTexts). */
function noiseTexts(state: EmitState, l: NoiseLayer): NoiseTexts {
  const kind = noiseKind(state, l.kind);
  const frequency = num(state, l.frequency);
  const args = `${noiseTable(state, l.seed)}, ${int(state, l.octaves)}, ${num(state, l.lacunarity)}, ${num(state, l.gain)}`;
  const relativeFirst = state.relative ? relativeRows(state.relative, l) : undefined;
  return { amplitude: num(state, l.amplitude), kind, frequency, args, relativeFirst };
}

/** `amplitude * fractal(...)` of a noise layer at `p` (`band`: its slot or ''). */
function noiseTerm(t: NoiseTexts, band: string): string {
  const args = band ? t.args.replace(/^([^,]+, [^,]+), /, `$1, ${band}, `) : t.args;
  const fractal = band ? 'sr_fractalBand' : 'sr_fractal';
  if (t.relativeFirst !== undefined) return `${t.amplitude} * ${fractal}Rel(${t.kind}, p * ${t.frequency}, ${args}, ${t.relativeFirst})`;
  return `${t.amplitude} * ${fractal}(${t.kind}, p * ${t.frequency}, ${args})`;
}

/** A node's band slots (each `sr_band[k]`, or '' without band uniforms or without the modifier). */
interface NodeBands {
  shell: string;
  noise: string[];
  warp: string;
}

/** Takes a node's own slots, before its children's: pre-order, as bandLimitSummary visits the tree. */
function nodeBands(state: EmitState, node: FieldNode): NodeBands {
  const band = state.band;
  const shell = band && node.type === 'shell' ? bandSlot(state, { kind: 'shell', thickness: node.thickness }) : '';
  const noise = (node.noise ?? []).map((l) =>
    band ? bandSlot(state, { kind: 'octaves', frequency: l.frequency, octaves: l.octaves, lacunarity: l.lacunarity }) : '');
  const w = node.warp;
  const warp = band && hasWarp(state, w)
    ? bandSlot(state, { kind: 'octaves', frequency: w.frequency, octaves: w.octaves, lacunarity: w.lacunarity })
    : '';
  return { shell, noise, warp };
}

/** The bodies of `sr_nI_base` (and `sr_nI_base_g`): the shape, or the operation over its children (emitted here first). */
function baseBody(state: EmitState, node: FieldNode, shellBand: string, base: string): Bodies {
  const g = state.gradient;
  switch (node.type) {
    case 'union':
    case 'intersection':
    case 'subtraction':
    case 'smoothUnion':
    case 'smoothIntersection':
    case 'smoothSubtraction':
      return csgBody(state, node, node.children.map((c) => emitNode(state, c)));
    case 'translate': {
      const child = emitNode(state, node.child);
      const offset = vec3(state, ...node.offset);
      return { value: `  return ${child}(p - ${offset});`, grad: g ? translateGradBody(child, offset) : '' };
    }
    case 'rotate': {
      const child = emitNode(state, node.child);
      const m = rotationMatrix(node.axis, node.angleDeg);
      const rows = [vec3(state, m[0], m[3], m[6]), vec3(state, m[1], m[4], m[7]), vec3(state, m[2], m[5], m[8])] as const;
      // Evaluate the child at Mᵀ p (the child is rotated by M), as in compileJs.ts.
      return {
        value: `  return ${child}(vec3(dot(${rows[0]}, p), dot(${rows[1]}, p), dot(${rows[2]}, p)));`,
        grad: g ? rotateGradBody(child, rows) : '',
      };
    }
    case 'scale': {
      const child = emitNode(state, node.child);
      const inverse = num(state, 1 / node.factor);
      const factor = num(state, node.factor);
      return { value: `  return ${child}(p * ${inverse}) * ${factor};`, grad: g ? scaleGradBody(child, inverse, factor) : '' };
    }
    case 'shell': {
      const child = emitNode(state, node.child);
      const thickness = num(state, node.thickness);
      const body = `  return abs(${child}(p)) - ${thickness};`;
      // Dropped: the child is not evaluated, as in compileJs.ts.
      return { value: shellBand ? `  if (${shellBand} == 0) return ${GLSL_DROPPED_SHELL};\n${body}` : body, grad: g ? shellGradBody(child, thickness) : '' };
    }
    default:
      return { value: shapeBody(state, node), grad: g ? differenceGradBody(base, SHAPE_STEP) : '' };
  }
}

/**
 * A shared modifier group's memo (per-invocation globals) and `sr_mG_update(p)`: the warped point,
 * the crater term and each noise term `amplitude · fractal`, with the band slots of `node` (the
 * group's first node; every node of the group has slots of the same values).
 */
function emitSharedModifiers(state: EmitState, node: FieldNode, g: number, bands: NodeBands): void {
  const m = `sr_m${g}`;
  const w = node.warp;
  const noise = node.noise ?? [];
  const craters = hasCraters(state, node.craters) ? emitCraters(state, node.craters) : null;
  const globals = [`vec3 ${m}_w;`, ...(craters ? [`float ${m}_crater;`] : []), ...noise.map((_, i) => `float ${m}_t${i};`)];
  const lines: string[] = [];
  if (hasWarp(state, w)) lines.push(...warpLines(warpTexts(state, w), bands.warp));
  lines.push(`  ${m}_w = p;`);
  if (craters) lines.push(`  ${m}_crater = ${craters}(p);`);
  noise.forEach((l, i) => lines.push(`  ${m}_t${i} = ${noiseTerm(noiseTexts(state, l), bands.noise[i])};`));
  state.functions.push(...globals, `void ${m}_update(vec3 p) {\n${lines.join('\n')}\n}`);
}

/** The body of `sr_nI` reading its modifiers from shared group of `key` (emitted on first use). */
function sharedModifierBody(state: EmitState, node: FieldNode, key: string, base: string, bands: NodeBands): string {
  let g = state.groups.get(key);
  if (g === undefined) {
    g = state.groups.size;
    state.groups.set(key, g);
    emitSharedModifiers(state, node, g, bands);
  }
  const m = `sr_m${g}`;
  const n = (node.noise ?? []).length;
  const lines = [
    `  float d = ${base}(${m}_w);`,
    ...(hasCraters(state, node.craters) ? [`  d -= ${m}_crater;`] : []),
    ...Array.from({ length: n }, (_, i) => `  d -= ${m}_t${i};`),
    '  return d;',
  ];
  return lines.join('\n');
}

/** The bodies of `sr_nI` (and `sr_nI_g`) evaluating its own modifiers (crater functions emitted here). */
function ownModifierBody(state: EmitState, node: FieldNode, base: string, bands: NodeBands): Bodies {
  const w = node.warp;
  const lines: string[] = [];
  const warp = hasWarp(state, w) ? warpTexts(state, w) : null;
  if (warp) lines.push(...warpLines(warp, bands.warp));
  lines.push(`  float d = ${base}(p);`);
  const craters = hasCraters(state, node.craters) ? emitCraters(state, node.craters) : null;
  if (craters) lines.push(`  d -= ${craters}(p);`);
  const noise = (node.noise ?? []).map((l) => noiseTexts(state, l));
  noise.forEach((t, i) => lines.push(`  d -= ${noiseTerm(t, bands.noise[i])};`));
  lines.push('  return d;');
  return { value: lines.join('\n'), grad: state.gradient ? modifierGradBody(base, warp, craters, noise) : '' };
}

/** Emits the node (children first) and returns its function name. */
export function emitNode(state: EmitState, node: FieldNode): string {
  const id = state.nodeCount++;
  const base = `sr_n${id}_base`;
  const bands = nodeBands(state, node);
  const baseBodies = baseBody(state, node, bands.shell, base);
  state.functions.push(`float ${base}(vec3 p) {\n${baseBodies.value}\n}`);
  if (state.gradient) state.functions.push(`vec4 ${base}_g(vec3 p) {\n${baseBodies.grad}\n}`);

  // Modifiers, in the order of compileJs.ts: warp the point, then base − craters − noise.
  // Band-limited, a layer or warp with 0 used octaves gives exactly 0 (compileJs.ts skips it):
  // d - a * 0 and p + A * 0 are d and p.
  const key = modifierKey(node);
  const shared = key !== null && state.shared.has(key);
  if (shared && state.gradient) throw new GlslCodegenError('shared modifiers and gradient functions: compile the gradient without sharing');
  const body = shared ? { value: sharedModifierBody(state, node, key, base, bands), grad: '' } : ownModifierBody(state, node, base, bands);
  const name = `sr_n${id}`;
  state.functions.push(`float ${name}(vec3 p) {\n${body.value}\n}`);
  if (state.gradient) state.functions.push(`vec4 ${name}_g(vec3 p) {\n${body.grad}\n}`);
  return name;
}
