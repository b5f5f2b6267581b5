/**
 * A planet's atmosphere (issue 20): what scatters and absorbs light, per planet from its seed.
 * Pure and deterministic (Node-tested); src/render/Atmosphere.ts turns it into Hillaire 2020's
 * look-up tables and the sky. Airless planets have none.
 *
 * The medium is the one of Hillaire's "A Scalable and Production Ready Sky and Atmosphere Rendering
 * Technique" (EGSR 2020; the reference issue 20 names), scaled to planets of 50–6000 km:
 * - Rayleigh scattering, density exp(−h / H_R). Earth's coefficients at sea level are
 *   (5.802, 13.558, 33.1)·10⁻⁶ /m for H_R = 8 km: zenith optical depths (0.046, 0.108, 0.265). A
 *   small planet keeps Earth's kind of zenith depth (scaled by a seeded density) over a scale
 *   height that shrinks with √R, so the sky is as blue overhead and the horizon, seen through
 *   √(πR / 2H) times the zenith's air, still turns red at sunset.
 * - Mie scattering (haze), density exp(−h / H_M) (H_M = 0.2 H_R, 0.5 on hazy planets),
 *   Cornette-Shanks phase with g ≈ 0.8; hazy planets have more of it, and dust that absorbs blue
 *   (ochre skies).
 * - An ozone-like absorbing layer (a tent of density around 3 H_R) on clear planets: it keeps the
 *   zenith blue when the sun is low.
 */
import { Prng } from '../field/prng';
import type { AtmosphereKind, AtmosphereSpec } from '../field/atmosphere';
import type { Vec3 } from '../field/recipe';

/** Earth's Rayleigh optical depth straight up, per channel (Hillaire's coefficients × 8 km). */
const EARTH_RAYLEIGH_ZENITH: Vec3 = [5.802e-6 * 8e3, 13.558e-6 * 8e3, 33.1e-6 * 8e3];
/** Earth's ozone absorption per metre at its peak (Hillaire). */
const EARTH_OZONE: Vec3 = [0.65e-6, 1.881e-6, 0.085e-6];
/** Share of planets with an atmosphere. */
const ATMOSPHERE_SHARE = 0.65;
/** The atmosphere's top, in Rayleigh scale heights above the bottom (Earth: 100 km / 8 km). */
const TOP_SCALE_HEIGHTS = 12;

/**
 * The atmosphere of planet `seed` of base radius `radiusM` whose terrain reaches down to
 * `lowestM` (null: airless). A stream of its own, so the planet's recipe (and its hashes) do not move.
 */
export function planetAtmosphere(seed: number, radiusM: number, lowestM = radiusM): AtmosphereSpec | null {
  const prng = new Prng((seed ^ 0xa7305ee1) >>> 0);
  if (prng.next() >= ATMOSPHERE_SHARE) return null;
  const kind: AtmosphereKind = prng.next() < 0.7 ? 'clear' : 'hazy';
  const hR = Math.min(8000, Math.max(700, 8000 * Math.sqrt(radiusM / 6.36e6)));
  const density = prng.range(0.7, 1.8);
  // A seeded tint of the scattering spectrum (a little greener or more violet than Earth's).
  const tint: Vec3 = [prng.range(0.8, 1.25), prng.range(0.85, 1.2), prng.range(0.9, 1.15)];
  // The bottom is the low ground (at most one scale height under the mean: deeper valleys see its
  // density); the zenith depths above are meant from the mean ground.
  const bottom = Math.max(Math.min(radiusM, lowestM), radiusM - hR);
  const below = radiusM - bottom;
  const hM = (kind === 'hazy' ? 0.5 : 0.2) * hR;
  const atMeanR = Math.exp(below / hR);
  const atMeanM = Math.exp(below / hM);
  const rayleighScattering = EARTH_RAYLEIGH_ZENITH.map((t, i) => (atMeanR * t * tint[i] * density * (kind === 'hazy' ? 0.5 : 1)) / hR) as Vec3;
  // Mie zenith optical depth: light haze on clear planets, more on hazy ones — kept so that the
  // haze near the ground thins light by e only over ≥ ~10 km (a small planet's scale height is
  // short, so Mars' τ ≈ 0.5 would be a fog there: the first hazy planets were opaque at 300 m).
  const mieZenith = kind === 'hazy' ? prng.range(0.06, 0.14) : prng.range(0.015, 0.04);
  const mieS = (atMeanM * mieZenith) / hM;
  // Dust absorbs blue more than red: ochre, butterscotch or rust skies.
  const dust: Vec3 = kind === 'hazy' ? [prng.range(0.02, 0.08), prng.range(0.15, 0.3), prng.range(0.45, 0.8)] : [0.11, 0.11, 0.11];
  const absorptionHalfWidthM = 1.9 * hR;
  // Earth's ozone column over its 15 km half width, kept as an optical depth.
  const ozone = kind === 'clear' ? (EARTH_OZONE.map((a) => (a * 15e3 * density) / absorptionHalfWidthM) as Vec3) : [0, 0, 0] as Vec3;
  return {
    kind,
    bottomRadiusM: bottom,
    topRadiusM: bottom + TOP_SCALE_HEIGHTS * hR,
    rayleighScattering,
    rayleighScaleHeightM: hR,
    mieScattering: [mieS, mieS, mieS],
    mieAbsorption: dust.map((d) => d * mieS) as Vec3,
    mieScaleHeightM: hM,
    mieG: kind === 'hazy' ? 0.7 : 0.8,
    absorption: ozone,
    absorptionCenterM: 3.1 * hR,
    absorptionHalfWidthM,
    groundAlbedo: kind === 'hazy' ? [0.35, 0.25, 0.18] : [0.3, 0.3, 0.3],
  };
}
