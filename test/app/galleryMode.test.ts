/** Where a gallery cell leads (src/app/galleryMode.ts) and the overlay's planet class line (planetClassLine.ts). */
import { describe, expect, it } from 'vitest';
import { galleryOpenState } from '../../src/app/galleryMode';
import { planetClassLine } from '../../src/app/planetClassLine';
import { DEFAULT_STATE, formatAppState } from '../../src/app/urlState';
import { PLANET_CLASS_LABELS, planetClassOf, sceneSpec } from '../../src/scene/index';

describe('galleryOpenState', () => {
  const gallery = { ...DEFAULT_STATE, mode: 'gallery' as const, start: 20, count: 3, edits: 'p' };

  it('an asteroid cell opens asteroid mode with its seed', () => {
    const next = galleryOpenState(gallery, 21);
    expect(next).toMatchObject({ mode: 'asteroid', seed: 21, camera: null, edits: '' });
    expect(formatAppState(next)).toBe('?seed=21&mode=asteroid');
  });

  it('a planet cell opens planet mode with its seed, in its own class', () => {
    const next = galleryOpenState({ ...gallery, galleryKind: 'planets', planetClass: 'ocean' }, 22);
    expect(next).toMatchObject({ mode: 'planet', seed: 22, camera: null, edits: '', planetClass: null });
    expect(formatAppState(next)).toBe('?seed=22&mode=planet');
  });
});

describe('planetClassLine', () => {
  it('names the planet and its class; an override says the seed’s own', () => {
    const own = planetClassOf(4);
    expect(planetClassLine(sceneSpec(4, 'planet'))).toBe(`planet 4: ${PLANET_CLASS_LABELS[own]}`);
    const other = own === 'ocean' ? 'moon' : 'ocean';
    expect(planetClassLine(sceneSpec(4, 'planet', { planetClass: other }))).toBe(
      `planet 4: ${PLANET_CLASS_LABELS[other]} (class=${other}; its own: ${PLANET_CLASS_LABELS[own]})`,
    );
    expect(planetClassLine(sceneSpec(4, 'asteroid'))).toBeNull();
  });
});
