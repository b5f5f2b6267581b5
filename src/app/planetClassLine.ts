/**
 * The overlay's line naming the scene's planet and its class (src/scene/planetClasses.ts):
 * `planet 4: alpine`, or `planet 4: ocean world (class=ocean; its own: alpine)` when the URL's
 * `class` overrides the seed's. No line in a scene without a planet.
 */
import { PLANET_CLASS_LABELS, planetClassOf, type SceneSpec } from '../scene/index';
import type { StatsOverlay } from './ui/StatsOverlay';

/** The line for `spec`'s planet, or null when it has none. */
export function planetClassLine(spec: Pick<SceneSpec, 'planet'>): string | null {
  const planet = spec.planet;
  if (!planet) return null;
  const own = planetClassOf(planet.seed);
  const label = PLANET_CLASS_LABELS[planet.planetClass];
  return planet.planetClass === own
    ? `planet ${planet.seed}: ${label}`
    : `planet ${planet.seed}: ${label} (class=${planet.planetClass}; its own: ${PLANET_CLASS_LABELS[own]})`;
}

/** Sets (or clears) the overlay's `class` line for the scene `spec`. */
export function showPlanetClass(stats: Pick<StatsOverlay, 'setLine' | 'clearLine'>, spec: Pick<SceneSpec, 'planet'>): void {
  const line = planetClassLine(spec);
  if (line === null) stats.clearLine('class');
  else stats.setLine('class', line);
}
