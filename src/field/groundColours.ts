/**
 * A planet's ground colour per vertex (issue 20, "ground that reads at every altitude"), computed
 * once when a chunk or seam is meshed, in its body worker: dark maria in the low basins (large,
 * noise-edged: they read from orbit), light regolith on the highlands, bare darker rock on steep
 * slopes, ice towards the poles on gentle ground, and tone variation from continents down to a few
 * hundred metres. The palette is seeded per planet ({@link groundPalette}); the renderer's material
 * (src/render/planetGround.ts) reads the result as a vertex attribute.
 *
 * Why here and not in the vertex shader, where it was: its 8 octaves of value noise ran for each of
 * ~1 M vertices every frame — 2.1 of the 10.5 ms of GPU time a frame at 20 m over planet 4 on the
 * H100 (docs/rendering.md), and most of those vertices line caves nobody sees. Nothing in it depends
 * on the camera but the octaves' band limit, which was the pixel footprint; per vertex it is the
 * mesh's cell size now (an octave under two cells cannot be sampled by the vertices anyway).
 *
 * The noise is the integer-hash value noise of glsl/sr_procnoise.glsl (same hash, same octave
 * offsets and salts), here in double precision: the pattern is the shader's.
 */
import { Prng } from './prng';

type Rgb = [number, number, number];

/** What the ground colours are made from: plain data (it goes to the body workers with the planet). */
export interface GroundPalette {
  meanRadiusM: number;
  reliefM: number;
  salt: number;
  regolith: Rgb;
  mare: Rgb;
  rock: Rgb;
  ice: Rgb;
  /** sin of the latitude where ice starts (> 1: no polar ice). */
  iceLatitude: number;
  /** Lowland vegetation or moss where the moisture field is wet (null: a dry or airless world). */
  vegetation: Rgb | null;
  /** Sand: beaches over the sea's shore and dry lowland. */
  sand: Rgb;
  /** Snow lies on gentle ground higher than this over the mean radius, metres (Infinity: never). */
  snowAboveM: number;
  /** The sea that covers the low ground (its floor is seen through it, fading to `deep`), or null. */
  sea: { radiusM: number; deep: Rgb; clarityM: number } | null;
  /** Molten rock glows in the lowlands' cracks and lakes (the volcanic class): see {@link GLOW_ALPHA_BYTES}. */
  lava: boolean;
  /** Sulphur or salt crusts in patches (vents), or null. */
  deposit: Rgb | null;
}

/**
 * The alpha byte of a vertex's ground colour is its roughness (× 255), from 64 up; bytes under 64
 * mark ground that glows (molten rock): glow = 1 − byte / 64, at a fixed roughness
 * ({@link GLOW_ROUGHNESS}). The roughness rules never go under 0.3 (byte 77), so no ground that
 * does not glow is read as glowing; the emission's colour and strength are the renderer's
 * (glsl/sr_ground_glow.glsl).
 */
export const GLOW_ALPHA_BYTES = 64;
/** Roughness of glowing ground (a crust over the melt), and the least of any ground on a planet with lava (glsl/sr_ground_roughness.glsl). */
export const GLOW_ROUGHNESS = 0.85;

/** What a planet's class asks of its ground (issue 41): the palette's class-dependent colours and rules. */
export interface GroundClassOptions {
  /** src/scene/planetClasses.ts's class name; absent: the airless regolith of issue 20. */
  planetClass?: string;
  sea?: { radiusM: number; deep: Rgb; clarityM: number } | null;
}

/** Class palettes (linear albedo): base ground, lowland (the "mare" role), rock, vegetation, sand. */
const CLASS_GROUND: Record<string, { ground: Rgb; low: Rgb; rock: Rgb; vegetation: Rgb | null; sand: Rgb; ice: boolean; snow: number; lava?: boolean; deposit?: Rgb }> = {
  moon: { ground: [0.2, 0.2, 0.2], low: [0.09, 0.09, 0.095], rock: [0.15, 0.15, 0.15], vegetation: null, sand: [0.22, 0.21, 0.2], ice: true, snow: Infinity },
  desert: { ground: [0.46, 0.3, 0.16], low: [0.36, 0.24, 0.13], rock: [0.3, 0.16, 0.09], vegetation: null, sand: [0.52, 0.38, 0.2], ice: true, snow: Infinity },
  alpine: { ground: [0.16, 0.15, 0.12], low: [0.2, 0.17, 0.12], rock: [0.2, 0.19, 0.18], vegetation: [0.05, 0.09, 0.03], sand: [0.5, 0.43, 0.3], ice: true, snow: 0.35 },
  ocean: { ground: [0.14, 0.13, 0.09], low: [0.22, 0.19, 0.12], rock: [0.17, 0.15, 0.13], vegetation: [0.04, 0.1, 0.035], sand: [0.55, 0.48, 0.34], ice: true, snow: 0.6 },
  ice: { ground: [0.7, 0.75, 0.82], low: [0.55, 0.62, 0.72], rock: [0.3, 0.36, 0.44], vegetation: null, sand: [0.6, 0.65, 0.72], ice: true, snow: -Infinity },
  // Basalt: black fresh flows in the lows, dark grey older ground, rust-red oxidised cliffs, ash;
  // molten rock in the lowlands' cracks and lakes, sulphur crusts in patches (Io's vents).
  volcanic: { ground: [0.055, 0.052, 0.05], low: [0.03, 0.027, 0.026], rock: [0.13, 0.06, 0.035], vegetation: null, sand: [0.09, 0.085, 0.08], ice: false, snow: Infinity, lava: true, deposit: [0.45, 0.36, 0.07] },
  karst: { ground: [0.42, 0.41, 0.37], low: [0.3, 0.29, 0.24], rock: [0.36, 0.35, 0.32], vegetation: [0.06, 0.1, 0.045], sand: [0.5, 0.47, 0.4], ice: true, snow: 0.7 },
};

/** The surf's foam (linear albedo). */
const SURF_FOAM: Rgb = [0.75, 0.78, 0.8];

/** Regolith tones (linear albedo): grey, beige, ochre, rust, brown. */
const REGOLITH: Rgb[] = [
  [0.17, 0.17, 0.17], [0.22, 0.2, 0.16], [0.25, 0.19, 0.12], [0.24, 0.14, 0.09], [0.18, 0.14, 0.11],
];

/**
 * The palette of planet `seed` (its ground's mean radius and relief, metres), after its class: the
 * ground's colours, vegetation where it is wet, snow over a snowline (a share of the relief), sand
 * on the shore, the sea floor seen through the water.
 */
export function groundPalette(options: { seed: number; meanRadiusM: number; reliefM: number } & GroundClassOptions): GroundPalette {
  const prng = new Prng((options.seed ^ 0x62a0c3d1) >>> 0);
  const regolith = REGOLITH[prng.intRange(0, REGOLITH.length - 1)].map((c) => c * prng.range(0.85, 1.2)) as Rgb;
  const mareDark = prng.range(0.4, 0.6);
  const basalt = [0.16, 0.16, 0.17];
  const iceLatitude = Math.sin((prng.range(62, 74) * Math.PI) / 180);
  const base: GroundPalette = {
    meanRadiusM: options.meanRadiusM,
    reliefM: options.reliefM,
    salt: prng.seed() >>> 0,
    regolith,
    // Basalt: darker and greyer than the highlands.
    mare: regolith.map((c, i) => mareDark * (0.6 * c + 0.4 * basalt[i])) as Rgb,
    rock: regolith.map((c) => 0.7 * c + 0.02) as Rgb,
    ice: [0.72, 0.76, 0.82],
    iceLatitude,
    vegetation: null,
    sand: regolith,
    snowAboveM: Infinity,
    sea: null,
    lava: false,
    deposit: null,
  };
  const cls = options.planetClass !== undefined ? CLASS_GROUND[options.planetClass] : undefined;
  if (!cls) return base;
  const tint = prng.range(0.88, 1.12);
  const shade = (c: Rgb): Rgb => [c[0] * tint, c[1], c[2] / tint];
  return {
    ...base,
    regolith: shade(cls.ground),
    mare: shade(cls.low),
    rock: shade(cls.rock),
    iceLatitude: cls.ice ? iceLatitude : 2,
    vegetation: cls.vegetation,
    sand: shade(cls.sand),
    snowAboveM: cls.snow * Math.max(options.reliefM, 1),
    sea: options.sea ?? null,
    lava: cls.lava ?? false,
    deposit: cls.deposit ? shade(cls.deposit) : null,
  };
}

/** glsl/sr_common.glsl's sr_hashU. */
function hashU(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** glsl/sr_procnoise.glsl's sr_latticeHash: [0, 1). */
function latticeHash(x: number, y: number, z: number, salt: number): number {
  return hashU(Math.imul(x, 0x8da6b343) ^ Math.imul(y, 0xd8163841) ^ Math.imul(z, 0xcb1ab31f) ^ Math.imul(salt, 0x9e3779b9)) / 4294967296;
}

const fade = (t: number): number => t * t * t * (t * (t * 6 - 15) + 10);
const mix = (a: number, b: number, t: number): number => a + (b - a) * t;

function smoothstep(e0: number, e1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
}

/** sr_valueNoise3: trilinear value noise with a quintic fade, in [0, 1]. */
function valueNoise3(px: number, py: number, pz: number, salt: number): number {
  const fx = Math.floor(px), fy = Math.floor(py), fz = Math.floor(pz);
  const ux = fade(px - fx), uy = fade(py - fy), uz = fade(pz - fz);
  const x = fx | 0, y = fy | 0, z = fz | 0;
  return mix(
    mix(mix(latticeHash(x, y, z, salt), latticeHash(x + 1, y, z, salt), ux), mix(latticeHash(x, y + 1, z, salt), latticeHash(x + 1, y + 1, z, salt), ux), uy),
    mix(mix(latticeHash(x, y, z + 1, salt), latticeHash(x + 1, y, z + 1, salt), ux), mix(latticeHash(x, y + 1, z + 1, salt), latticeHash(x + 1, y + 1, z + 1, salt), ux), uy),
    uz,
  );
}

/**
 * sr_fbmFiltered at p / scale: a fractal sum in about [-1, 1] whose octaves fade out as their
 * wavelength nears two `footprintM`s.
 */
function fbmFiltered(x: number, y: number, z: number, scale: number, octaves: number, footprintM: number, salt: number): number {
  const footprint = footprintM / scale;
  let sum = 0, amp = 0.5, freq = 1;
  for (let i = 0; i < octaves; i++) {
    const w = 1 - smoothstep(0.25, 0.5, footprint * freq);
    if (w <= 0) break;
    const o = i * 17.13, f = freq / scale;
    sum += amp * w * (2 * valueNoise3(x * f + o, y * f + o, z * f + o, (salt + i) >>> 0) - 1);
    amp *= 0.5;
    freq *= 2.03;
  }
  return sum;
}

/**
 * Cracks of molten rock at wavelength `scaleM`: the thin band around the zero crossings of one
 * octave of value noise (a network of curves), in [0, 1]. Where the mesh's cells cannot carry the
 * lines (a footprint over a tenth of the wavelength) they fade into their mean share of the area,
 * so a coarse mesh glows as dimly on average as the fine one and never in whole triangles.
 */
function lavaCracks(x: number, y: number, z: number, scaleM: number, footprintM: number, salt: number): number {
  const mean = 0.07;
  const resolved = 1 - smoothstep(0.04, 0.12, footprintM / scaleM);
  if (resolved <= 0) return mean;
  const n = 2 * valueNoise3(x / scaleM, y / scaleM, z / scaleM, salt) - 1;
  const line = smoothstep(0.06, 0.015, Math.abs(n));
  return resolved * line + (1 - resolved) * mean;
}

/**
 * The surf's foam over the first metres of the sea: patches of value noise at 4 m, broken into
 * streaks, in [0, 1]; where the cells cannot carry them, their mean cover (one half).
 */
function surfFoam(x: number, y: number, z: number, footprintM: number, salt: number): number {
  const resolved = 1 - smoothstep(0.5, 1.5, footprintM / 4);
  if (resolved <= 0) return 0.5;
  const n = valueNoise3(x / 4, y / 4, z / 4, salt);
  return resolved * smoothstep(0.35, 0.65, n) + (1 - resolved) * 0.5;
}

/**
 * Per vertex, RGBA bytes: the albedo's square root in rgb (8 bits keep the dark tones that way;
 * the shader squares it back) and the roughness in a. Positions relative to `originM` in the
 * planet's frame; normals unit (float) or × 0x7fff (int16). `footprintM`: the mesh's cell size.
 */
export function groundVertexColours(
  positions: Float32Array, normals: Float32Array | Int16Array, originM: readonly [number, number, number], footprintM: number, g: GroundPalette,
): Uint8Array {
  const n = positions.length / 3;
  const out = new Uint8Array(4 * n);
  const R = g.meanRadiusM, relief = Math.max(g.reliefM, 1);
  const salt = g.salt;
  for (let v = 0; v < n; v++) {
    const x = originM[0] + positions[3 * v], y = originM[1] + positions[3 * v + 1], z = originM[2] + positions[3 * v + 2];
    const r = Math.hypot(x, y, z);
    const nx = normals[3 * v], ny = normals[3 * v + 1], nz = normals[3 * v + 2];
    const flatness = (nx * x + ny * y + nz * z) / (r * (Math.hypot(nx, ny, nz) || 1));
    // Continental scale: basins and highlands; regional and local tone.
    const big = fbmFiltered(x, y, z, 0.4 * R, 3, footprintM, salt);
    const region = fbmFiltered(x, y, z, 0.06 * R, 3, footprintM, (salt + 7) >>> 0);
    const local = fbmFiltered(x, y, z, 300, 2, footprintM, (salt + 13) >>> 0);
    const h = (r - R) / relief;
    const mare = smoothstep(0.1, -0.25, h + 0.9 * big + 0.15 * region);
    const tone = (1 + 0.22 * region) * (1 + 0.18 * local);
    // Steep ground sheds its dust: bare rock.
    const steep = smoothstep(0.9, 0.65, flatness + 0.08 * local);
    // Ice towards the poles, on gentle ground, with a ragged edge.
    const lat = Math.abs(y / r);
    const altitude = r - R;
    const gentle = smoothstep(0.55, 0.8, flatness);
    // Snow over the snowline (ragged by the regional noise), and polar ice, on gentle ground.
    const snow = g.snowAboveM === Infinity ? 0 : smoothstep(-0.05, 0.05, (altitude - g.snowAboveM) / relief + 0.15 * region + 0.05 * local) * gentle;
    const ice = Math.max(snow, smoothstep(g.iceLatitude - 0.02, g.iceLatitude + 0.02, lat + 0.06 * big + 0.03 * local) * gentle);
    // Moisture: wet lowlands grow vegetation, less of it up the slopes and towards the snow.
    const wet = g.vegetation ? smoothstep(-0.1, 0.25, 0.8 * region + 0.5 * big - 0.6 * h) * smoothstep(0.6, 0.85, flatness) : 0;
    // The shore: sand a few metres over the sea; the sea floor fades into the water's colour.
    const seaDepth = g.sea ? g.sea.radiusM - r : -Infinity;
    const shore = g.sea ? smoothstep(6 + 4 * local, 1, -seaDepth) * smoothstep(-2, 0, -seaDepth) * gentle : 0;
    const under = seaDepth > 0 ? 1 - Math.exp(-seaDepth / g.sea!.clarityM) : 0;
    // Surf: white water over the first ~1.5 m of the sea, seen through the clear shallows as a
    // broken band along every coast; the sand a metre over the water wet and darker.
    const surf = g.sea ? smoothstep(-0.3, 0.2, seaDepth) * smoothstep(1.8, 0.4, seaDepth) * gentle * surfFoam(x, y, z, footprintM, (salt + 41) >>> 0) : 0;
    const wetSand = g.sea ? smoothstep(-1.5, -0.2, seaDepth) * smoothstep(0.2, 0, seaDepth) : 0;
    // Molten rock (volcanic): lakes in the deepest lows (crusted, the crust cracked at 40 m) and
    // cracks at 2 km and 150 m across the lowlands, on ground gentle enough to pool.
    let glow = 0;
    if (g.lava) {
      const lake = smoothstep(-0.65, -0.85, h + 0.5 * big + 0.2 * region) * gentle;
      const lowland = smoothstep(0.3, -0.1, h + 0.6 * big);
      const crust = lavaCracks(x, y, z, 40, footprintM, (salt + 29) >>> 0);
      const cracks = Math.max(lavaCracks(x, y, z, 2000, footprintM, (salt + 31) >>> 0), 0.8 * lavaCracks(x, y, z, 150, footprintM, (salt + 37) >>> 0));
      glow = Math.min(1, Math.max(lake * (0.35 + 0.65 * crust), lowland * smoothstep(0.5, 0.8, flatness) * cracks));
    }
    // Crusts (sulphur) in patches of a few kilometres on gentle ground.
    const deposit = g.deposit ? smoothstep(0.35, 0.55, region + 0.4 * big + 0.15 * local) * gentle : 0;
    for (let c = 0; c < 3; c++) {
      let albedo = mix(g.regolith[c], g.mare[c], mare) * tone;
      if (g.vegetation) albedo = mix(albedo, g.vegetation[c] * (1 + 0.25 * local), wet);
      albedo = mix(albedo, g.rock[c] * (1 + 0.2 * local), steep);
      albedo = mix(albedo, g.sand[c] * (1 + 0.1 * local), shore);
      albedo *= 1 - 0.35 * wetSand;
      if (g.deposit) albedo = mix(albedo, g.deposit[c] * (1 + 0.3 * local), deposit);
      albedo = mix(albedo, g.ice[c], ice);
      if (seaDepth > 0) albedo = mix(albedo * (c === 0 ? 0.7 : 0.95), g.sea!.deep[c], under);
      albedo = mix(albedo, SURF_FOAM[c], surf);
      out[4 * v + c] = Math.round(255 * Math.sqrt(Math.min(1, Math.max(0, albedo))));
    }
    const roughness = Math.round(255 * mix(mix(mix(0.95, 0.85, steep), 0.55, ice), 0.3, seaDepth > 0 ? 1 : 0));
    // Glowing ground takes the bytes under GLOW_ALPHA_BYTES (a glow under 1/64 is none).
    const glowByte = Math.round(GLOW_ALPHA_BYTES * (1 - glow));
    out[4 * v + 3] = glowByte < GLOW_ALPHA_BYTES ? glowByte : Math.max(GLOW_ALPHA_BYTES, roughness);
  }
  return out;
}
