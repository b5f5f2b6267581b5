/**
 * A planet's atmosphere as a medium (issue 20): what scatters and absorbs light at each altitude,
 * and the transmittance through it — the data a planet's definition carries beside its field.
 * src/scene/planetAtmosphere.ts makes one per planet from its seed; src/render/Atmosphere.ts renders
 * its look-up tables and sky. Pure: Node tests and the CPU's daylight estimate use the same numbers.
 */
import type { Vec3 } from './recipe';

export type AtmosphereKind = 'clear' | 'hazy';

export interface AtmosphereSpec {
  kind: AtmosphereKind;
  /** Radius where the density is that of the ground (the lowest terrain), metres. */
  bottomRadiusM: number;
  /** Radius where the atmosphere ends (density ~e⁻¹² of the ground's), metres. */
  topRadiusM: number;
  /** Rayleigh scattering at the bottom, per metre (RGB). */
  rayleighScattering: Vec3;
  rayleighScaleHeightM: number;
  /** Mie scattering and absorption at the bottom, per metre (RGB). */
  mieScattering: Vec3;
  mieAbsorption: Vec3;
  mieScaleHeightM: number;
  /** Mie phase asymmetry (Cornette-Shanks g). */
  mieG: number;
  /** Ozone-like absorption at the layer's peak, per metre (RGB); zero on hazy planets. */
  absorption: Vec3;
  /** Altitude of the absorbing layer's peak and its half width, metres. */
  absorptionCenterM: number;
  absorptionHalfWidthM: number;
  /** Ground albedo the multiple scattering sees (RGB). */
  groundAlbedo: Vec3;
}

/** Extinction per metre (RGB) at `altitudeM` above the bottom. */
export function extinctionAt(a: AtmosphereSpec, altitudeM: number): Vec3 {
  const h = Math.max(0, altitudeM);
  const r = Math.exp(-h / a.rayleighScaleHeightM);
  const m = Math.exp(-h / a.mieScaleHeightM);
  const o = Math.max(0, 1 - Math.abs(h - a.absorptionCenterM) / a.absorptionHalfWidthM);
  return [0, 1, 2].map((i) => a.rayleighScattering[i] * r + (a.mieScattering[i] + a.mieAbsorption[i]) * m + a.absorption[i] * o) as Vec3;
}

/**
 * Transmittance (RGB) from a point at `radiusM` from the center, along a ray at `cosZenith` to the
 * atmosphere's top; 0 when the ray meets the bottom sphere (the planet's shadow). Midpoint rule.
 */
export function transmittanceToTop(a: AtmosphereSpec, radiusM: number, cosZenith: number, steps = 256): Vec3 {
  const r = Math.max(radiusM, a.bottomRadiusM);
  const b = r * cosZenith;
  const c = r * r - a.bottomRadiusM * a.bottomRadiusM;
  if (cosZenith < 0 && b * b - c >= 0 && r > a.bottomRadiusM * (1 + 1e-9)) return [0, 0, 0];
  const disc = b * b - (r * r - a.topRadiusM * a.topRadiusM);
  const length = Math.max(0, -b + Math.sqrt(Math.max(0, disc)));
  const depth: Vec3 = [0, 0, 0];
  const dt = length / steps;
  for (let i = 0; i < steps; i++) {
    const t = (i + 0.5) * dt;
    const rr = Math.sqrt(r * r + t * t + 2 * r * t * cosZenith);
    const e = extinctionAt(a, rr - a.bottomRadiusM);
    for (let k = 0; k < 3; k++) depth[k] += e[k] * dt;
  }
  return depth.map((d) => Math.exp(-d)) as Vec3;
}

/**
 * A planet's sea (issue 41): not part of the field but a second drawn surface, the sphere of
 * `radiusM` around the planet's center wherever the ground is below it. Colours are linear RGB.
 */
export interface SeaSpec {
  /** Sea level: radius from the planet's center, metres. */
  radiusM: number;
  /** Water colour over shallow ground (what the ground shows through a few metres of it). */
  shallow: Vec3;
  /** Colour of deep water, looking straight down. */
  deep: Vec3;
  /** Depth (m) over which the ground's colour fades into `deep` (e-folding). */
  clarityM: number;
}

/**
 * A planet's cloud layer (issue 41): a shell of the atmosphere at `radiusM`, its cover a seeded
 * noise of feature size `featureM` that drifts with scene time (`driftMps` metres a second along
 * the planet's east), frozen with `t=`. Lit by the atmosphere's sun.
 */
export interface CloudSpec {
  /** Radius of the layer from the planet's center, metres. */
  radiusM: number;
  /** Share of the sky covered, 0–1. */
  coverage: number;
  /** The size of the largest cloud systems, metres. */
  featureM: number;
  /** Peak opacity of a thick cloud, 0–1. */
  opacity: number;
  /** Linear RGB albedo of the cloud tops (white, ochre dust, grey ash). */
  colour: Vec3;
  /** Unsigned 32-bit seed of the cover pattern. */
  seed: number;
  /** Drift speed along the planet's east, metres per second of scene time. */
  driftMps: number;
}
