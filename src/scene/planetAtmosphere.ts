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
import type { AtmosphereKind, AtmosphereSpec, CloudSpec } from '../field/atmosphereMedium';
import type { Vec3 } from '../field/recipe';
import { ATMOSPHERE_SALT, ATMOSPHERE_SHARE, type AirKind, type PlanetClass } from './planetClasses';

/** Earth's Rayleigh optical depth straight up, per channel (Hillaire's coefficients × 8 km). */
const EARTH_RAYLEIGH_ZENITH: Vec3 = [5.802e-6 * 8e3, 13.558e-6 * 8e3, 33.1e-6 * 8e3];
/** Earth's ozone absorption per metre at its peak (Hillaire). */
const EARTH_OZONE: Vec3 = [0.65e-6, 1.881e-6, 0.085e-6];
/** The atmosphere's top, in Rayleigh scale heights above the bottom (Earth: 100 km / 8 km). */
const TOP_SCALE_HEIGHTS = 12;

/**
 * The atmosphere of planet `seed` of base radius `radiusM` whose terrain reaches down to
 * `lowestM` (null: airless). A stream of its own, so the planet's recipe (and its hashes) do not
 * move. `air` is what the planet's class gives it (planetClasses.ts `planetAir`); without it, what
 * the seed draws. The medium's numbers are drawn the same either way.
 */
export function planetAtmosphere(seed: number, radiusM: number, lowestM = radiusM, air?: AirKind): AtmosphereSpec | null {
  const prng = new Prng((seed ^ ATMOSPHERE_SALT) >>> 0);
  const hasAir = prng.next() < ATMOSPHERE_SHARE;
  const drawn: AtmosphereKind = prng.next() < 0.7 ? 'clear' : 'hazy';
  if (air === 'none' || (air === undefined && !hasAir)) return null;
  const kind: AtmosphereKind = air ?? drawn;
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

/**
 * The cloud layer of a planet with air (issue 41): ocean worlds are the cloudiest (a third to a
 * half of the cover field; its soft edges read as more from orbit: at 0.45–0.65 an ocean world was
 * ~three quarters white on the H200), deserts nearly
 * clear, hazy volcanic worlds carry grey ash. The layer sits about one Rayleigh scale height over
 * the mean ground (Earth: cumulus at 1–2 km, H = 8 km), at least 1.5 km over it (so hills do not
 * all pierce it) and under the atmosphere's top. Null for airless planets.
 */
export function planetClouds(seed: number, cls: PlanetClass, atmosphere: AtmosphereSpec | null, meanRadiusM: number, reliefM: number): CloudSpec | null {
  if (!atmosphere) return null;
  const prng = new Prng((seed ^ 0x5c10d5e7) >>> 0);
  const cover: Record<PlanetClass, [number, number]> = {
    moon: [0, 0], desert: [0.03, 0.1], alpine: [0.25, 0.4], ocean: [0.3, 0.5], ice: [0.15, 0.3], volcanic: [0.2, 0.35], karst: [0.2, 0.35],
  };
  const [lo, hi] = cover[cls];
  if (hi === 0) return null;
  const hR = atmosphere.rayleighScaleHeightM;
  const altitude = Math.min(Math.max(1.5e3, 0.4 * reliefM, prng.range(0.7, 1.1) * hR), 0.5 * (atmosphere.topRadiusM - meanRadiusM));
  const colour: Vec3 = cls === 'volcanic' ? [0.32, 0.31, 0.3] : atmosphere.kind === 'hazy' ? [0.8, 0.68, 0.52] : [0.9, 0.9, 0.92];
  return {
    radiusM: meanRadiusM + altitude,
    coverage: prng.range(lo, hi),
    featureM: Math.min(2e6, Math.max(20e3, 0.35 * meanRadiusM)) * prng.range(0.8, 1.2),
    opacity: cls === 'desert' ? 0.55 : 0.85,
    colour,
    seed: prng.seed(),
    driftMps: prng.range(4, 12),
  };
}
