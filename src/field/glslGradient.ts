/**
 * The field's analytic gradient in GLSL (GlslCodegenOptions.gradient): beside each node's
 * `sr_nI(p)` the node stage (glslNodes.ts) emits `vec4 sr_nI_g(p)`, the node's gradient and value
 * (xyz, w), from the texts built here; `sr_fieldGrad(p)` is the root's with the brushes.
 *
 * Why: a body's per-pixel normal took four whole-field evaluations (a tetrahedral difference), and
 * the noise in them was most of explore's frame on the H100. Simplex noise has a cheap exact
 * derivative (glsl/sr_noise_grad.glsl), so one evaluation gives the gradient: noise, warps
 * (through the warp's Jacobian), CSG (the chosen side; smooth blends by their weights), rotations,
 * translations, scales, shells, brushes and crater fields by the chain rule. Shapes are cheap next to
 * the noise and piecewise: their gradients are differences of their own functions (five evaluations).
 *
 * Filtering: a difference over the pixel footprint attenuated detail finer than a pixel, and an
 * exact gradient would alias it. `sr_gradFootprintM` (set by the caller) leaves out octaves under
 * two footprints and attenuates the rest as that difference did (sr_octaveWeight). Crater fields
 * are exact: the smallest craters of a body are about two of its mesh cells across (radius 0.03 of
 * the body's on the cratered family, 64 cells over its box), so three pixels or more wherever
 * BodyMaterial draws field normals (from 1.5 pixels a cell, weighted in up to 6).
 */
import { GlslCodegenError } from './glslLiterals';

/** CSG node types and their gradient combinators (glsl/sr_noise_grad.glsl). */
const CSG_GRAD: Record<string, (d: string, child: string, k: string) => string> = {
  union: (d, c) => `sr_minG(${d}, ${c})`,
  intersection: (d, c) => `sr_maxG(${d}, ${c})`,
  subtraction: (d, c) => `sr_maxG(${d}, -${c})`,
  smoothUnion: (d, c, k) => `sr_sminG(${d}, ${c}, ${k})`,
  smoothIntersection: (d, c, k) => `sr_smaxG(${d}, ${c}, ${k})`,
  smoothSubtraction: (d, c, k) => `sr_smaxG(${d}, -${c}, ${k})`,
};

/** `sr_nI_base_g` of a CSG node over its children's gradient functions (`names`: their `sr_nJ`). */
export function csgGradBody(type: string, names: readonly string[], k: string): string {
  const combine = CSG_GRAD[type];
  if (!combine) throw new GlslCodegenError(`not a CSG node: ${type}`);
  const lines = [`  vec4 d = ${names[0]}_g(p);`];
  for (const name of names.slice(1)) lines.push(`  d = ${combine('d', `${name}_g(p)`, k)};`);
  lines.push('  return d;');
  return lines.join('\n');
}

/**
 * Gradient and value of a function `fn` of `p` by a tetrahedral difference of step `h` (GLSL
 * expression), plus the value at `p`: for shapes and crater fields.
 */
export function differenceGradBody(fn: string, h: string): string {
  return `  float h = ${h};
  const vec2 k = vec2(1.0, -1.0);
  vec3 g = k.xyy * ${fn}(p + k.xyy * h) + k.yyx * ${fn}(p + k.yyx * h) + k.yxy * ${fn}(p + k.yxy * h) + k.xxx * ${fn}(p + k.xxx * h);
  return vec4(g * (0.25 / h), ${fn}(p));`;
}

/** A shape's difference step (m): small next to any shape, large next to float32's rounding of p. */
export const SHAPE_STEP = '(4.0 * SR_FIELD_GRADIENT_STEP)';

/**
 * A crater field's gradient function: the value loop (craters.ts's profile: a parabolic bowl
 * inside, a quadratic rim falloff outside; the deepest bowl and the highest rim add) with the
 * chosen craters' slopes. The profile is a function of x² = k |n − a|², n the direction from the
 * field's centre: ∂x²/∂n = 2k (n − a), and ∂n/∂p = (I − n nᵀ) / |p − c|. One pass over the list
 * instead of a difference's five (80–128 craters a pass on the cratered family).
 */
export function craterGradFunction(name: string, center: string, reach: string, falloff: string, loop: string, read: string): string {
  return `vec4 ${name}(vec3 p) {
  vec3 d = p - ${center};
  float len = length(d);
  if (!(len > 0.0)) return vec4(0.0);
  vec3 n = d / len;
  float raised = 0.0;
  float lowered = 0.0;
  vec3 gRaised = vec3(0.0);
  vec3 gLowered = vec3(0.0);
${loop}
${read}
    float x2 = dot(dd, dd) * k.x;
    if (x2 >= ${reach}) continue;
    float h;
    float slope;
    if (x2 < 1.0) {
      h = -k.y + (k.y + k.z) * x2;
      slope = k.y + k.z;
    } else {
      float s = sqrt(x2);
      float t = 1.0 - (s - 1.0) * ${falloff};
      h = k.z * t * t;
      slope = -k.z * t * ${falloff} / s;
    }
    if (h > raised) { raised = h; gRaised = slope * 2.0 * k.x * dd; }
    if (h < lowered) { lowered = h; gLowered = slope * 2.0 * k.x * dd; }
  }
  vec3 gn = gRaised + gLowered;
  return vec4((gn - n * dot(n, gn)) / len, raised + lowered);
}`;
}

/** The gradient of a translated child at `p − offset`. */
export function translateGradBody(child: string, offset: string): string {
  return `  return ${child}_g(p - ${offset});`;
}

/** A child evaluated at q = (r0·p, r1·p, r2·p): ∇p = Σ ∂f/∂qᵢ rᵢ. */
export function rotateGradBody(child: string, rows: readonly [string, string, string]): string {
  const [r0, r1, r2] = rows;
  return `  vec3 r0 = ${r0};
  vec3 r1 = ${r1};
  vec3 r2 = ${r2};
  vec4 c = ${child}_g(vec3(dot(r0, p), dot(r1, p), dot(r2, p)));
  return vec4(c.x * r0 + c.y * r1 + c.z * r2, c.w);`;
}

/** factor · child(p / factor): the same gradient; the child sees the footprint in its own units. */
export function scaleGradBody(child: string, inverse: string, factor: string): string {
  return `  sr_gradFootprintM *= ${inverse};
  vec4 c = ${child}_g(p * ${inverse});
  sr_gradFootprintM *= ${factor};
  return vec4(c.xyz, c.w * ${factor});`;
}

/** |child| − thickness. */
export function shellGradBody(child: string, thickness: string): string {
  return `  vec4 c = ${child}_g(p);
  return vec4(sign(c.w) * c.xyz, abs(c.w) - ${thickness});`;
}

/** A node's warp, as its value function has it: frequency, amplitude and the fractal's arguments after the point. */
export interface WarpTexts {
  frequency: string;
  amplitude: string;
  /** `table, octaves, lacunarity, gain`. */
  args: string;
  offsets: readonly [string, string, string];
  /**
   * The amplitude is data and may be 0 (numbers as data: a family's shape has a warp whether or
   * not a seed uses it): the warp is skipped at run time when it is, a branch every invocation of
   * a draw takes the same way.
   */
  mayBeZero: boolean;
  /** Chunk-relative fields (chunkRelative.ts): each component's first `sr_relOrigin` row. */
  relativeRows?: readonly [string, string, string];
}

/** A noise layer: `amplitude · fractal(kind, p · frequency, table, octaves, lacunarity, gain)`. */
export interface NoiseTexts {
  amplitude: string;
  kind: string;
  frequency: string;
  /** `table, octaves, lacunarity, gain`. */
  args: string;
  /** Chunk-relative fields (chunkRelative.ts): the layer's first `sr_relOrigin` row. */
  relativeFirst?: string;
}

/**
 * `sr_nI_g`: the warp (its Jacobian kept), base − craters − noise with gradients, then the
 * gradient taken back through the warp: ∇p = (I + A·F·Jfbm)ᵀ ∇q.
 */
export function modifierGradBody(base: string, warp: WarpTexts | null, craters: string | null, noise: readonly NoiseTexts[]): string {
  const lines: string[] = [];
  if (warp) {
    const [o0, o1, o2] = warp.offsets;
    const open = warp.mayBeZero ? ['  if (wa != 0.0) {'] : [];
    const close = warp.mayBeZero ? ['  }'] : [];
    lines.push(
      `  float wf = ${warp.frequency};`,
      `  float wa = ${warp.amplitude};`,
      '  vec4 wx = vec4(0.0);',
      '  vec4 wy = vec4(0.0);',
      '  vec4 wz = vec4(0.0);',
      ...open,
      ...[
        '  vec3 u = p * wf;',
        `  wx = sr_fractalG(SR_NOISE_FBM, u + ${o0}, ${warp.args}, wf);`,
        `  wy = sr_fractalG(SR_NOISE_FBM, u + ${o1}, ${warp.args}, wf);`,
        `  wz = sr_fractalG(SR_NOISE_FBM, u + ${o2}, ${warp.args}, wf);`,
        '  p += wa * vec3(wx.w, wy.w, wz.w);',
      ].map((line) => (warp.mayBeZero ? `  ${line}` : line)),
      ...close,
    );
  }
  lines.push(`  vec4 d = ${base}_g(p);`);
  if (craters) lines.push(`  d -= ${craters}_g(p);`);
  noise.forEach((n, i) => {
    lines.push(
      `  float nf${i} = ${n.frequency};`,
      `  vec4 t${i} = sr_fractalG(${n.kind}, p * nf${i}, ${n.args}, nf${i});`,
      `  d -= ${n.amplitude} * vec4(t${i}.xyz * nf${i}, t${i}.w);`,
    );
  });
  if (warp) lines.push('  d.xyz += (wa * wf) * (mat3(wx.xyz, wy.xyz, wz.xyz) * d.xyz);');
  lines.push('  return d;');
  return lines.join('\n');
}

/** A brush's sphere (centre, radius: GLSL expressions) as gradient and value at `p`. */
export function brushSphereGrad(center: string, radius: string): string {
  return `sr_sphereG(p - ${center}, ${radius})`;
}

/** Declarations `sr_fieldGrad` needs beyond sr_noise_grad: the brushes' sphere. */
export const GRADIENT_HELPERS = `vec4 sr_sphereG(vec3 d, float r) {
  float len = length(d);
  return vec4(len > 0.0 ? d / len : vec3(0.0), len - r);
}`;
