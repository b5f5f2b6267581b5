/**
 * Planet classes (issue 41): what kind of world a planet seed grows into. A seed first draws
 * whether the planet has air (the atmosphere's own stream, src/scene/planetAtmosphere.ts, so that
 * draw is the one it always was), then a class among those that fit that air: an airless seed
 * is a cratered moon, an ice moon or a volcanic moon; a seed with clear air is alpine, an ocean
 * world, karst with arches and caves, a desert or an ice world; a hazy one a desert, a volcanic
 * world or karst. `class=` in the URL picks a class for any seed; the seed still decides the rest,
 * and the air follows the class where the seed's does not fit it (an ocean needs air).
 *
 * Pure and deterministic (Node-tested over seeds 0–199: every class occurs).
 */
import { Prng } from '../field/prng';

export const PLANET_CLASSES = ['moon', 'desert', 'alpine', 'ocean', 'ice', 'volcanic', 'karst'] as const;
export type PlanetClass = (typeof PLANET_CLASSES)[number];

/** What a planet's sky is made of: none, a clear Rayleigh sky, or a hazy (dusty) one. */
export type AirKind = 'none' | 'clear' | 'hazy';

/** One line per class, for labels (gallery, overlay) and docs. */
export const PLANET_CLASS_LABELS: Record<PlanetClass, string> = {
  moon: 'cratered moon',
  desert: 'desert',
  alpine: 'alpine',
  ocean: 'ocean world',
  ice: 'ice world',
  volcanic: 'volcanic',
  karst: 'karst: arches and caves',
};

/** The air each class may have, the first being its own when the seed's does not fit. */
export const CLASS_AIR: Record<PlanetClass, readonly AirKind[]> = {
  moon: ['none'],
  desert: ['hazy', 'clear'],
  alpine: ['clear'],
  ocean: ['clear'],
  ice: ['none', 'clear'],
  volcanic: ['none', 'hazy'],
  karst: ['clear', 'hazy'],
};

/** Class weights for each kind of air the seed drew. */
const CLASS_ODDS: Record<AirKind, readonly [PlanetClass, number][]> = {
  none: [['moon', 0.5], ['ice', 0.25], ['volcanic', 0.25]],
  clear: [['alpine', 0.25], ['ocean', 0.3], ['karst', 0.2], ['desert', 0.1], ['ice', 0.15]],
  hazy: [['desert', 0.5], ['volcanic', 0.3], ['karst', 0.2]],
};

/** Share of planets with an atmosphere (the stream's first draw). */
export const ATMOSPHERE_SHARE = 0.65;
/** Share of clear skies among planets with air (the stream's second draw). */
const CLEAR_SHARE = 0.7;
/** Salt of the atmosphere's stream (src/scene/planetAtmosphere.ts draws its medium after these two). */
export const ATMOSPHERE_SALT = 0xa7305ee1;
const CLASS_SALT = 0x3c1a55e5;

/** The air the seed draws (before any class override). */
export function seedAir(seed: number): AirKind {
  const prng = new Prng((seed ^ ATMOSPHERE_SALT) >>> 0);
  if (prng.next() >= ATMOSPHERE_SHARE) return 'none';
  return prng.next() < CLEAR_SHARE ? 'clear' : 'hazy';
}

/** The class planet `seed` grows into. */
export function planetClassOf(seed: number): PlanetClass {
  const odds = CLASS_ODDS[seedAir(seed)];
  const u = new Prng((seed ^ CLASS_SALT) >>> 0).next();
  let total = 0;
  for (const [, w] of odds) total += w;
  let acc = 0;
  for (const [c, w] of odds) {
    acc += w / total;
    if (u < acc) return c;
  }
  return odds[odds.length - 1][0];
}

/** The air of planet `seed` drawn as class `cls`: the seed's, or the class's own when it does not fit. */
export function planetAir(seed: number, cls: PlanetClass): AirKind {
  const air = seedAir(seed);
  const allowed = CLASS_AIR[cls];
  return allowed.includes(air) ? air : allowed[0];
}

/** `value` as a class name, or null (URL and CLI validation say what is accepted). */
export function parsePlanetClass(value: string): PlanetClass | null {
  return (PLANET_CLASSES as readonly string[]).includes(value) ? (value as PlanetClass) : null;
}
