import { describe, expect, it } from 'vitest';
import { formatDistance, pickLine } from '../../src/app/pickLine';

describe('the pointer line in plain words (issue 45)', () => {
  it('says what, how far and what a click does; no field-surface jargon, no raw coordinates', () => {
    const planet = pickLine({ kind: 'planet', pointM: [-1453280.03, 37826.39, -540991.22], distanceM: 1_168_042.7, altitudeM: -116.8 }, 1);
    expect(planet).toBe('pointer: the ground of planet 1 · 1,168 km away · click to go there');
    const asteroid = pickLine({
      kind: 'asteroid', pointM: [10, 20, 30], distanceM: 1234.5,
      asteroid: { index: 3, seed: 123, family: 'contactBinary', radiusM: 120, centerM: [0, 0, 0] },
    });
    expect(asteroid).toBe('pointer: asteroid 3 (seed 123, contact binary, 240 m across) · 1.2 km away · click to go there');
    for (const line of [planet, asteroid]) {
      expect(line).not.toMatch(/field|surface|hit|\(-?\d+, -?\d+/);
    }
  });

  it('distances: metres under a kilometre, one decimal under 100 km, whole kilometres beyond', () => {
    expect(formatDistance(0.4)).toBe('0 m');
    expect(formatDistance(999.4)).toBe('999 m');
    expect(formatDistance(3400)).toBe('3.4 km');
    expect(formatDistance(1_168_042)).toBe('1,168 km');
  });
});
