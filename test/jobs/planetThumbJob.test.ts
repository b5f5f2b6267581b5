/**
 * The planet gallery's job (src/jobs/planetThumbJob.ts): a whole planet as one coarse, closed
 * mesh with the ground's colour per vertex, deterministic.
 */
import { describe, expect, it } from 'vitest';
import { groundPalette } from '../../src/field/groundColours';
import { validateMesh } from '../../src/mesher/index';
import { planetGround, sceneSpec } from '../../src/scene/index';
import { registerBody, unregisterBody } from './oneWorker';
import { meshPlanetThumb, planetThumbTransfer } from './oneWorker';

function register(seed: number, withGround: boolean): { body: string; radiusM: number; meanRadiusM: number } {
  const planet = sceneSpec(seed, 'planet').planet!;
  const g = planetGround(planet.recipe);
  const body = `${planet.id}/thumb`;
  const ground = withGround ? groundPalette({ seed, meanRadiusM: g.meanRadiusM, reliefM: g.meanRadiusM - g.lowestM }) : undefined;
  registerBody(body, { recipe: planet.recipe, ...(ground ? { ground } : {}) });
  return { body, radiusM: planet.radiusM, meanRadiusM: g.meanRadiusM };
}

describe('meshPlanetThumb', () => {
  it('seed 4: the six faces and their seams make one closed sphere-like mesh at the ground, coloured per vertex', () => {
    const { body, radiusM, meanRadiusM } = register(4, true);
    const r = meshPlanetThumb({ body, radiusM, cells: 32 });
    const mesh = { positions: r.positions, normals: r.normals, indices: r.indices, originWorld: r.originM, vertexCells: new Int32Array(0) };
    const report = validateMesh(mesh);
    expect(report.boundaryEdges).toBe(0);
    expect(report.nonManifoldEdges).toBe(0);
    expect(report.components).toBe(1);
    expect(report.genus).toBe(0);
    const vertices = r.positions.length / 3;
    expect(vertices).toBeGreaterThan(5000);
    expect(r.colours).not.toBeNull();
    expect(r.colours!.length).toBe(4 * vertices);
    // Every vertex near the ground's mean radius (within the relief and a coarse cell).
    for (let i = 0; i < vertices; i += 97) {
      const d = Math.hypot(r.originM[0] + r.positions[3 * i], r.originM[1] + r.positions[3 * i + 1], r.originM[2] + r.positions[3 * i + 2]);
      expect(Math.abs(d / meanRadiusM - 1)).toBeLessThan(0.1);
    }
    expect(planetThumbTransfer(r)).toHaveLength(4);
    // Deterministic: the same job gives the same mesh.
    const again = meshPlanetThumb({ body, radiusM, cells: 32 });
    expect(again.positions).toEqual(r.positions);
    expect(again.colours).toEqual(r.colours);
    unregisterBody(body);
  });

  it('a planet registered without a palette gets no colours', () => {
    const { body, radiusM } = register(5, false);
    const r = meshPlanetThumb({ body, radiusM, cells: 16 });
    expect(r.colours).toBeNull();
    expect(r.indices.length).toBeGreaterThan(0);
    unregisterBody(body);
  });
});
