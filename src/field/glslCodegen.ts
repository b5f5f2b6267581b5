/**
 * FieldRecipe → GLSL source text (the `sr_field` chunk). No `?raw` imports here: the
 * chunk refers to `#include <sr_noise>`, which src/field/compileGlsl.ts resolves.
 *
 * Safety: user data never becomes code. Identifiers are made by this compiler from
 * counters (`sr_n3`, `SR_CRATER_DIR_1`), node types and noise kinds select fixed
 * templates below, and every number goes through {@link glslFloat} / {@link glslInt},
 * which refuse anything that is not a finite number and check the text they produce.
 *
 * Generated layout (one function per node, children first, since GLSL has no forward
 * references without prototypes):
 *
 *   const uint SR_PERM[64 * T] = uint[](...);   // T permutation tables, 4 bytes per word
 *   int sr_perm(int table, int i) {...}
 *   #include <sr_noise>
 *   const vec3 SR_CRATER_DIR_k[n] ...; float sr_craters_k(vec3 p) {...}
 *   float sr_n7(vec3 p) {...}  ...  float sr_n0(vec3 p) {...}
 *   float sr_field(vec3 p) { root, then brushes }
 *   vec3 sr_fieldGradient(vec3 p) { central differences, step SR_FIELD_GRADIENT_STEP }
 *
 * Nodes whose active modifiers are structurally identical (compileJs.ts `modifierKey`; the planet's
 * cave shell follows the terrain with the terrain's own warp, craters and noise) share them, as
 * compileToJs does, when every node of the group is evaluated at the field's own point
 * ({@link sharedModifierKeys}): `sr_field` first calls `sr_mK_update(p)`, which keeps the warped
 * point, the crater term and each noise term in per-invocation globals, and every node of the group
 * reads them. The planet's field then costs about half the noise calls it did.
 *
 * With `bandUniforms` one program serves every band limit (compileToJs `minWavelengthM`):
 * `uniform int sr_band[K]` holds, per slot, a noise layer's or warp's used octave count
 * (`sr_fractalBand`) or whether a shell is kept (0: dropped, DROPPED_SHELL). Slots are numbered in
 * tree pre-order (a node's shell, its noise layers, its warp, then its children's), the order of
 * bandLimitSummary's signature; {@link bandSlotValues} fills the uniform for a limit.
 */
import type { BandSlot } from './bandLimit';
import { countModifierKeys, modifierKey } from './compileJs';
import { CRATER_STRIDE, placeCraters } from './craters';
import { noisePermutation } from './noise';
import { WARP_OFFSETS } from './noise';
import type { CraterField, FieldNode, FieldRecipe, NoiseKind } from './recipe';
import { rotationMatrix } from './transform';

/** Thrown for an internal compiler fault (never for user input: parseRecipe runs first). */
export class GlslCodegenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GlslCodegenError';
  }
}

const FLOAT_TEXT = /^-?[0-9]+\.[0-9]+(e[+-][0-9]+)?$/;
/** float32 finite range (a literal beyond it would be +inf in the shader). */
const FLOAT32_MAX = 3.4e38;

/** A finite number as a GLSL float literal: 9 significant digits (float32 round-trips). */
export function glslFloat(value: number): string {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > FLOAT32_MAX) {
    throw new GlslCodegenError(`not a finite float32: ${String(value)}`);
  }
  const v = value === 0 ? 0 : value; // no "-0"
  const text = v.toPrecision(9);
  if (!FLOAT_TEXT.test(text)) throw new GlslCodegenError(`unexpected number text ${JSON.stringify(text)}`);
  return text.startsWith('-') ? `(${text})` : text;
}

/** An integer in int32 range as a GLSL int literal. */
export function glslInt(value: number): string {
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) >= 2 ** 31) {
    throw new GlslCodegenError(`not an int32: ${String(value)}`);
  }
  const text = String(value === 0 ? 0 : value);
  return text.startsWith('-') ? `(${text})` : text;
}

function glslUint(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new GlslCodegenError(`not a uint32: ${String(value)}`);
  return `${value}u`;
}

function vec3(x: number, y: number, z: number): string {
  return `vec3(${glslFloat(x)}, ${glslFloat(y)}, ${glslFloat(z)})`;
}

const KIND_CONSTANT: Record<NoiseKind, string> = {
  fbm: 'SR_NOISE_FBM',
  ridged: 'SR_NOISE_RIDGED',
  billow: 'SR_NOISE_BILLOW',
};

export type { BandSlot } from './bandLimit';

/**
 * compileJs.ts's DROPPED_SHELL (a band-limited-away shell's value: far outside, the identity of
 * union and subtraction), kept equal by test/field/bandUniforms.test.ts.
 */
const DROPPED_SHELL = 1e30;

/** Options of {@link generateFieldGlsl}. */
export interface GlslCodegenOptions {
  /**
   * Band limit as a uniform (`sr_band`, see {@link GlslCodegenResult.bandSlots}); default false:
   * the full field, no uniforms, the text every existing caller gets.
   */
  bandUniforms?: boolean;
  /**
   * Read the permutation tables from `uniform highp usampler2D sr_permutation` (R8UI, 256 × tables,
   * row t = table t: {@link GlslCodegenResult.permutation}) instead of a constant array. A constant
   * array indexed by data is copied into every invocation's local memory by some drivers; a
   * texture fetch is not. Default false.
   */
  permutationTexture?: boolean;
}

export interface GlslCodegenResult {
  /** The `sr_field` chunk (contains `#include <sr_noise>`). */
  chunk: string;
  /** Distinct noise seeds, in table order. */
  noiseSeeds: number[];
  /** The baked permutation tables, 256 bytes per seed (also usable as a data texture). */
  permutation: Uint8Array;
  craterCount: number;
  nodeCount: number;
  /**
   * What each entry of `uniform int sr_band[K]` controls, in slot order (empty without
   * `bandUniforms`; K is at least 1 so the declaration stays valid). Fill it with
   * {@link bandSlotValues}; an unset uniform is all zeros, i.e. every octave and shell dropped.
   */
  bandSlots: BandSlot[];
}

/**
 * Modifier keys (compileJs.ts `modifierKey`) held by two or more nodes that are all evaluated at the
 * field's own point: reached from the root through CSG and shell nodes only, none of them warped.
 * Their modifiers are computed once at the top of `sr_field`, unconditionally — no branch around
 * the evaluation (SwiftShader lost the WebGL context on a fragment shader that evaluated them
 * behind `if (point changed)`, with the permutation tables in a texture). Keys held elsewhere too
 * are not shared.
 */
function sharedModifierKeys(root: FieldNode): Set<string> {
  const counts = new Map<string, number>();
  countModifierKeys(root, counts);
  const atRoot = new Map<string, boolean>();
  const visit = (node: FieldNode, here: boolean): void => {
    const key = modifierKey(node);
    if (key !== null) atRoot.set(key, (atRoot.get(key) ?? true) && here);
    const passes = here && !(node.warp && node.warp.amplitude > 0);
    if ('children' in node) for (const c of node.children) visit(c, passes);
    if ('child' in node) visit(node.child, passes && node.type === 'shell');
  };
  visit(root, true);
  return new Set([...counts].filter(([key, n]) => n >= 2 && atRoot.get(key) === true).map(([key]) => key));
}

/** Emits the `sr_field` chunk for an already parsed recipe. */
export function generateFieldGlsl(recipe: FieldRecipe, gradientStepM: number, options: GlslCodegenOptions = {}): GlslCodegenResult {
  const band = options.bandUniforms ?? false;
  const bandSlots: BandSlot[] = [];
  /** `sr_band[k]` for a new slot. */
  const slot = (s: BandSlot): string => {
    bandSlots.push(s);
    return `sr_band[${glslInt(bandSlots.length - 1)}]`;
  };
  const seeds: number[] = [];
  const tableOf = (seed: number): string => {
    let i = seeds.indexOf(seed);
    if (i < 0) {
      i = seeds.length;
      seeds.push(seed);
    }
    return glslInt(i);
  };
  const functions: string[] = [];
  const shared = sharedModifierKeys(recipe.root);
  /** Shared modifier groups emitted so far: key → group id. */
  const groups = new Map<string, number>();
  let nodeCounter = 0;
  let craterCounter = 0;
  let craterCount = 0;

  const emitCraters = (field: CraterField): string => {
    const id = craterCounter++;
    const data = placeCraters(field);
    const n = field.count;
    craterCount += n;
    const dirs: string[] = [];
    const params: string[] = [];
    for (let i = 0; i < n; i++) {
      const o = i * CRATER_STRIDE;
      dirs.push(vec3(data[o], data[o + 1], data[o + 2]));
      params.push(vec3(data[o + 3], data[o + 4], data[o + 5]));
    }
    const e = field.ejectaFalloff;
    const [cx, cy, cz] = field.center;
    functions.push(
      `const vec3 SR_CRATER_DIR_${id}[${glslInt(n)}] = vec3[](\n  ${dirs.join(',\n  ')});`,
      `// (R/r)^2, depth m, rim m`,
      `const vec3 SR_CRATER_K_${id}[${glslInt(n)}] = vec3[](\n  ${params.join(',\n  ')});`,
      `float sr_craters_${id}(vec3 p) {
  vec3 d = p - ${vec3(cx, cy, cz)};
  float len = length(d);
  if (!(len > 0.0)) return 0.0;
  vec3 n = d / len;
  float raised = 0.0;
  float lowered = 0.0;
  for (int i = 0; i < ${glslInt(n)}; i++) {
    vec3 dd = n - SR_CRATER_DIR_${id}[i];
    vec3 k = SR_CRATER_K_${id}[i];
    float x2 = dot(dd, dd) * k.x;
    if (x2 >= ${glslFloat((1 + e) * (1 + e))}) continue;
    float h;
    if (x2 < 1.0) {
      h = -k.y + (k.y + k.z) * x2;
    } else {
      float t = 1.0 - (sqrt(x2) - 1.0) * ${glslFloat(1 / e)};
      h = k.z * t * t;
    }
    raised = max(raised, h);
    lowered = min(lowered, h);
  }
  return raised + lowered;
}`,
    );
    return `sr_craters_${id}`;
  };

  const emitCsg = (node: FieldNode & { children: FieldNode[] }, names: string[]): string => {
    const k = 'blend' in node ? glslFloat(node.blend as number) : '';
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
    return lines.join('\n');
  };

  const emitShapeBody = (node: FieldNode): string => {
    switch (node.type) {
      case 'sphere':
        return `  return length(p) - ${glslFloat(node.radius)};`;
      case 'ellipsoid': {
        const [a, b, c] = node.radii;
        return `  float k0 = length(p / ${vec3(a, b, c)});
  float k1 = length(p / ${vec3(a * a, b * b, c * c)});
  return k1 > 0.0 ? k0 * (k0 - 1.0) / k1 : ${glslFloat(-Math.min(a, b, c))};`;
      }
      case 'box':
      case 'roundBox': {
        const r = node.type === 'roundBox' ? node.radius : 0;
        const h = node.halfExtents;
        return `  vec3 q = abs(p) - ${vec3(h[0] - r, h[1] - r, h[2] - r)};
  return length(max(q, 0.0)) + min(max(q.x, max(q.y, q.z)), 0.0) - ${glslFloat(r)};`;
      }
      case 'torus':
        return `  vec2 q = vec2(length(p.xz) - ${glslFloat(node.majorRadius)}, p.y);
  return length(q) - ${glslFloat(node.minorRadius)};`;
      case 'capsule': {
        const [ax, ay, az] = node.a;
        const ba = [node.b[0] - ax, node.b[1] - ay, node.b[2] - az];
        const bb = ba[0] * ba[0] + ba[1] * ba[1] + ba[2] * ba[2];
        return `  vec3 pa = p - ${vec3(ax, ay, az)};
  vec3 ba = ${vec3(ba[0], ba[1], ba[2])};
  float h = clamp(dot(pa, ba) * ${glslFloat(bb > 0 ? 1 / bb : 0)}, 0.0, 1.0);
  return length(pa - ba * h) - ${glslFloat(node.radius)};`;
      }
      case 'plane':
        return `  return dot(p, ${vec3(...node.normal)}) - ${glslFloat(node.offset)};`;
      default:
        throw new GlslCodegenError(`not a shape: ${node.type}`);
    }
  };

  /**
   * A shared modifier group's memo (per-invocation globals) and `sr_mG_update(p)`: the warped point,
   * the crater term and each noise term `amplitude · fractal`, with the band slots of `node` (the
   * group's first node; every node of the group has slots of the same values).
   */
  const emitSharedModifiers = (node: FieldNode, g: number, noiseBands: string[], warpBand: string): void => {
    const m = `sr_m${g}`;
    const w = node.warp;
    const noise = node.noise ?? [];
    const craters = node.craters && node.craters.count > 0 ? emitCraters(node.craters) : null;
    const globals = [`vec3 ${m}_w;`, ...(craters ? [`float ${m}_crater;`] : []), ...noise.map((_, i) => `float ${m}_t${i};`)];
    const lines: string[] = [];
    if (w && w.amplitude > 0) lines.push(...warpLines(w, warpBand));
    lines.push(`  ${m}_w = p;`);
    if (craters) lines.push(`  ${m}_crater = ${craters}(p);`);
    noise.forEach((l, i) => lines.push(`  ${m}_t${i} = ${noiseTerm(l, noiseBands[i])};`));
    functions.push(...globals, `void ${m}_update(vec3 p) {\n${lines.join('\n')}\n}`);
  };

  /** The lines that warp `p` in place (a node's warp, `band`: its slot or ''). */
  const warpLines = (w: NonNullable<FieldNode['warp']>, warpBand: string): string[] => {
    const t = tableOf(w.seed);
    const fractal = warpBand ? 'sr_fractalBand' : 'sr_fractal';
    const args = warpBand
      ? `${t}, ${glslInt(w.octaves)}, ${warpBand}, ${glslFloat(w.lacunarity)}, ${glslFloat(w.gain)}`
      : `${t}, ${glslInt(w.octaves)}, ${glslFloat(w.lacunarity)}, ${glslFloat(w.gain)}`;
    const [o0, o1, o2] = WARP_OFFSETS;
    return [
      `  vec3 u = p * ${glslFloat(w.frequency)};`,
      `  p += ${glslFloat(w.amplitude)} * vec3(`,
      `    ${fractal}(SR_NOISE_FBM, u + ${vec3(o0[0], o0[1], o0[2])}, ${args}),`,
      `    ${fractal}(SR_NOISE_FBM, u + ${vec3(o1[0], o1[1], o1[2])}, ${args}),`,
      `    ${fractal}(SR_NOISE_FBM, u + ${vec3(o2[0], o2[1], o2[2])}, ${args}));`,
    ];
  };

  /** `amplitude * fractal(...)` of a noise layer at `p` (`band`: its slot or ''). */
  const noiseTerm = (l: NonNullable<FieldNode['noise']>[number], band: string): string => {
    const kindPoint = `${KIND_CONSTANT[l.kind]}, p * ${glslFloat(l.frequency)}, ${tableOf(l.seed)}, ${glslInt(l.octaves)}`;
    const tail = `${glslFloat(l.lacunarity)}, ${glslFloat(l.gain)})`;
    return `${glslFloat(l.amplitude)} * ${band ? `sr_fractalBand(${kindPoint}, ${band}, ${tail}` : `sr_fractal(${kindPoint}, ${tail}`}`;
  };

  /** Emits the node (children first) and returns its function name. */
  const emitNode = (node: FieldNode): string => {
    const id = nodeCounter++;
    const base = `sr_n${id}_base`;
    // Slots before the children's: pre-order, as bandLimitSummary visits the tree.
    const shellBand = band && node.type === 'shell' ? slot({ kind: 'shell', thickness: node.thickness }) : '';
    const noiseBands = (node.noise ?? []).map((l) =>
      band ? slot({ kind: 'octaves', frequency: l.frequency, octaves: l.octaves, lacunarity: l.lacunarity }) : '');
    const w = node.warp;
    const warpBand = band && w && w.amplitude > 0
      ? slot({ kind: 'octaves', frequency: w.frequency, octaves: w.octaves, lacunarity: w.lacunarity })
      : '';
    let body: string;
    switch (node.type) {
      case 'union':
      case 'intersection':
      case 'subtraction':
      case 'smoothUnion':
      case 'smoothIntersection':
      case 'smoothSubtraction':
        body = emitCsg(node, node.children.map(emitNode));
        break;
      case 'translate':
        body = `  return ${emitNode(node.child)}(p - ${vec3(...node.offset)});`;
        break;
      case 'rotate': {
        const m = rotationMatrix(node.axis, node.angleDeg);
        // Evaluate the child at Mᵀ p (the child is rotated by M), as in compileJs.ts.
        body = `  return ${emitNode(node.child)}(vec3(dot(${vec3(m[0], m[3], m[6])}, p), dot(${vec3(m[1], m[4], m[7])}, p), dot(${vec3(m[2], m[5], m[8])}, p)));`;
        break;
      }
      case 'scale':
        body = `  return ${emitNode(node.child)}(p * ${glslFloat(1 / node.factor)}) * ${glslFloat(node.factor)};`;
        break;
      case 'shell':
        body = `  return abs(${emitNode(node.child)}(p)) - ${glslFloat(node.thickness)};`;
        // Dropped: the child is not evaluated, as in compileJs.ts.
        if (shellBand) body = `  if (${shellBand} == 0) return ${glslFloat(DROPPED_SHELL)};\n${body}`;
        break;
      default:
        body = emitShapeBody(node);
    }
    functions.push(`float ${base}(vec3 p) {\n${body}\n}`);

    // Modifiers, in the order of compileJs.ts: warp the point, then base − craters − noise.
    // Band-limited, a layer or warp with 0 used octaves gives exactly 0 (compileJs.ts skips it):
    // d - a * 0 and p + A * 0 are d and p.
    const key = modifierKey(node);
    if (key !== null && shared.has(key)) {
      let g = groups.get(key);
      if (g === undefined) {
        g = groups.size;
        groups.set(key, g);
        emitSharedModifiers(node, g, noiseBands, warpBand);
      }
      const m = `sr_m${g}`;
      const n = (node.noise ?? []).length;
      const lines = [
        `  float d = ${base}(${m}_w);`,
        ...(node.craters && node.craters.count > 0 ? [`  d -= ${m}_crater;`] : []),
        ...Array.from({ length: n }, (_, i) => `  d -= ${m}_t${i};`),
        '  return d;',
      ];
      const name = `sr_n${id}`;
      functions.push(`float ${name}(vec3 p) {\n${lines.join('\n')}\n}`);
      return name;
    }
    const lines: string[] = [];
    if (w && w.amplitude > 0) lines.push(...warpLines(w, warpBand));
    lines.push(`  float d = ${base}(p);`);
    if (node.craters && node.craters.count > 0) lines.push(`  d -= ${emitCraters(node.craters)}(p);`);
    (node.noise ?? []).forEach((l, i) => lines.push(`  d -= ${noiseTerm(l, noiseBands[i])};`));
    lines.push('  return d;');
    const name = `sr_n${id}`;
    functions.push(`float ${name}(vec3 p) {\n${lines.join('\n')}\n}`);
    return name;
  };

  const root = emitNode(recipe.root);
  // Shared modifiers first: every node of a group is evaluated at the field's own point.
  const fieldLines = [...[...groups.values()].map((g) => `  sr_m${g}_update(p);`), `  float d = ${root}(p);`];
  for (const b of recipe.brushes) {
    const sphere = `(length(p - ${vec3(...b.center)}) - ${glslFloat(b.radius)})`;
    if (b.op === 'add') {
      fieldLines.push(b.blend > 0 ? `  d = sr_smin(d, ${sphere}, ${glslFloat(b.blend)});` : `  d = min(d, ${sphere});`);
    } else {
      fieldLines.push(b.blend > 0 ? `  d = sr_smax(d, -${sphere}, ${glslFloat(b.blend)});` : `  d = max(d, -${sphere});`);
    }
  }
  fieldLines.push('  return d;');

  const permutation = new Uint8Array(256 * seeds.length);
  seeds.forEach((seed, i) => permutation.set(noisePermutation(seed), 256 * i));
  const header: string[] = [
    '// sr_field: generated by src/field/glslCodegen.ts from a FieldRecipe. Do not edit.',
    `#define SR_FIELD_GRADIENT_STEP ${glslFloat(gradientStepM)}`,
  ];
  if (seeds.length > 0 && options.permutationTexture) {
    header.push(
      `// ${glslInt(seeds.length)} permutation table(s) of simplex-noise, one row each of sr_permutation.`,
      'uniform highp usampler2D sr_permutation;',
      'int sr_perm(int table, int i) {',
      '  return int(texelFetch(sr_permutation, ivec2(i, table), 0).r);',
      '}',
    );
  } else if (seeds.length > 0) {
    const words: string[] = [];
    for (let i = 0; i < permutation.length; i += 4) {
      const word = (permutation[i] | (permutation[i + 1] << 8) | (permutation[i + 2] << 16) | (permutation[i + 3] << 24)) >>> 0;
      words.push(glslUint(word));
    }
    const rows: string[] = [];
    for (let i = 0; i < words.length; i += 8) rows.push(words.slice(i, i + 8).join(', '));
    header.push(
      `// ${glslInt(seeds.length)} permutation table(s) of simplex-noise, 4 entries per word, low byte first.`,
      `const uint SR_PERM[${glslInt(words.length)}] = uint[](\n  ${rows.join(',\n  ')});`,
      'int sr_perm(int table, int i) {',
      '  uint word = SR_PERM[table * 64 + (i >> 2)];',
      '  return int((word >> uint((i & 3) * 8)) & 255u);',
      '}',
    );
  } else {
    header.push('int sr_perm(int table, int i) { return (table + i) & 0; } // no noise in this recipe');
  }
  header.push('#include <sr_noise>');
  if (band) {
    header.push(
      '// Band limit per slot (GlslCodegenResult.bandSlots): used octaves, or 0 for a dropped shell.',
      `uniform int sr_band[${glslInt(Math.max(1, bandSlots.length))}];`,
    );
  }

  const chunk = [
    ...header,
    ...functions,
    `float sr_field(vec3 p) {\n${fieldLines.join('\n')}\n}`,
    `vec3 sr_fieldGradient(vec3 p) {
  const float h = SR_FIELD_GRADIENT_STEP;
  return vec3(
    sr_field(p + vec3(h, 0.0, 0.0)) - sr_field(p - vec3(h, 0.0, 0.0)),
    sr_field(p + vec3(0.0, h, 0.0)) - sr_field(p - vec3(0.0, h, 0.0)),
    sr_field(p + vec3(0.0, 0.0, h)) - sr_field(p - vec3(0.0, 0.0, h))) * (0.5 / h);
}`,
    '',
  ].join('\n');
  return { chunk, noiseSeeds: seeds, permutation, craterCount, nodeCount: nodeCounter, bandSlots };
}
