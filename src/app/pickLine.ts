/**
 * The overlay's line for what is under the pointer (issue 45: plain words). Not "hit −116.8 m from its
 * field's surface at (−1453280, 37826, −540991)": what it is, how far, and what a click does.
 * Pure (Node-tested: test/app/pickLine.test.ts).
 */

export interface PickInfo {
  kind: 'asteroid' | 'planet';
  pointM: [number, number, number];
  distanceM: number;
  /** The asteroid hit (kind 'asteroid'). */
  asteroid?: { index: number; seed: number; family: string; radiusM: number; centerM: [number, number, number] };
  /** Height of the hit above the planet's surface field (kind 'planet'), metres (tests; not shown). */
  altitudeM?: number;
}

/** Asteroid families in words. */
const FAMILY_WORDS: Record<string, string> = {
  potato: 'potato-shaped',
  shard: 'shard',
  contactBinary: 'contact binary',
  cratered: 'cratered',
  metallic: 'metallic',
  porous: 'porous',
};

/** A distance as people read it: `420 m`, `3.4 km`, `1,168 km`. */
export function formatDistance(m: number): string {
  if (!Number.isFinite(m)) return '—';
  if (m < 1000) return `${Math.round(m)} m`;
  if (m < 100_000) return `${(m / 1000).toFixed(1)} km`;
  return `${Math.round(m / 1000).toLocaleString('en')} km`;
}

/** The line: `pointer: asteroid 3 (seed 123, cratered, 240 m across) · 1.2 km away · click to go there`. */
export function pickLine(p: PickInfo, planetSeed?: number): string {
  const a = p.asteroid;
  const what = a
    ? `asteroid ${a.index} (seed ${a.seed}, ${FAMILY_WORDS[a.family] ?? a.family}, ${formatDistance(2 * a.radiusM)} across)`
    : `the ground of planet ${planetSeed ?? ''}`.trimEnd();
  return `pointer: ${what} · ${formatDistance(p.distanceM)} away · click to go there`;
}
