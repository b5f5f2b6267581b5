/**
 * A dig or a build on a planet (issue 19), in Node, as the renderer does it: only the chunks the brush reaches
 * (src/lod/planetEdits.ts) are meshed again with it, only the seams reading them are rebuilt, the rest
 * is kept — and the welded surface is still one closed 2-manifold. Undoing the dig gives back the
 * chunks' original meshes.
 */
import { describe, expect, it } from 'vitest';
import { compileToJs, makeBrush, recipeBounds, type Brush } from '../../src/field/index';
import {
  changedBrushes, CubeSphereSpace, keyOf, PlanetEdits, planetLod, planetShell, randomLodConfiguration, type ChunkAddress, type ChunkKey,
} from '../../src/lod/index';
import { validateMesh, weldMeshes, type BoundaryLeaves, type ChunkMesh } from '../../src/mesher/index';
import { planetRecipe } from '../../src/scene/planets';
import { meshPlanetChunk, type PlanetChunkResult } from './oneWorker';
import { buildPlanetSeamJob, type PlanetSeamPart, type PlanetSeamResult } from './oneWorker';
import { registerBody } from './oneWorker';

const PLANET = 'test:planet-edit';
const recipe = planetRecipe(7);
const bounds = recipeBounds(recipe);
const spaceOptions = { radiusM: bounds.sphereRadiusM, chunkCells: 8, finestCellM: bounds.sphereRadiusM / 200 };
registerBody(PLANET, { recipe, space: spaceOptions });

describe.each([
  { seed: 1, op: 'dig' as const },
  { seed: 5, op: 'build' as const },
])('a $op on a planet (LOD configuration $seed)', ({ seed, op }) => {
  const space = new CubeSphereSpace(spaceOptions);
  const lod = planetLod(space, randomLodConfiguration(space, planetShell(bounds), seed));
  const coarserOf = (k: ChunkKey): ChunkKey[] => {
    const a = lod.byKey.get(k)!;
    return lod.touching.get(k)!.filter((t) => lod.byKey.get(t)!.level === a.level + 1);
  };
  const meshChunk = (a: ChunkAddress, brushes: Brush[]): PlanetChunkResult =>
    meshPlanetChunk({ body: PLANET, ...a, coarser: coarserOf(keyOf(a)), simplify: 0, brushes });
  const seamOf = (owner: ChunkKey, chunks: Map<ChunkKey, PlanetChunkResult>): PlanetSeamResult => {
    const stitches = [...lod.seamStitches.get(owner)!];
    const parts: PlanetSeamPart[] = [owner, ...stitches].map((key) => {
      const r = chunks.get(key)!;
      return r.homogeneous ? { key, homogeneous: r.homogeneous.state } : { key, leaves: r.boundary as BoundaryLeaves };
    });
    return buildPlanetSeamJob({ body: PLANET, owner, stitches, parts });
  };
  const weld = (chunks: Map<ChunkKey, PlanetChunkResult>, seams: Map<ChunkKey, PlanetSeamResult>): ReturnType<typeof validateMesh> => {
    const meshes: ChunkMesh[] = [];
    const tags: (number | Uint8Array)[] = [];
    for (const [key, r] of chunks) {
      if (r.homogeneous) continue;
      meshes.push({ positions: r.positions, normals: r.normals, indices: r.indices, originWorld: r.originM, vertexCells: r.vertexCells });
      tags.push(lod.byKey.get(key)!.face);
    }
    for (const s of seams.values()) {
      meshes.push({ positions: s.positions, normals: s.normals, indices: s.indices, originWorld: s.originM, vertexCells: s.vertexCells });
      tags.push(s.vertexFaces);
    }
    return validateMesh(weldMeshes(meshes, tags));
  };

  it('re-meshes only the chunks it reaches and the seams reading them; the surface stays closed; undo restores', { timeout: 120_000 }, () => {
    const chunks = new Map(lod.leaves.map((a) => [keyOf(a), meshChunk(a, [])]));
    const seams = new Map(lod.keys.map((k) => [k, seamOf(k, chunks)]));
    expect(weld(chunks, seams).boundaryEdges).toBe(0);

    // A crater 8 finest cells across, centred on the surface inside the finest drawn chunk there is.
    const field = compileToJs(recipe);
    const finest = [...lod.leaves].filter((a) => !chunks.get(keyOf(a))!.homogeneous).sort((a, b) => a.level - b.level)[0];
    const dir = [0, 0, 0];
    space.direction(finest.face, (finest.ci + 0.5) * space.chunkUnits(finest.level), (finest.cj + 0.5) * space.chunkUnits(finest.level), dir);
    let lo = space.innerRadiusM, hi = space.outerRadiusM;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (field(dir[0] * mid, dir[1] * mid, dir[2] * mid) < 0) lo = mid;
      else hi = mid;
    }
    const center = [dir[0] * lo, dir[1] * lo, dir[2] * lo];
    const dig = makeBrush(op, center, 4 * spaceOptions.finestCellM);
    const edits = new PlanetEdits(space, [dig]);
    expect(changedBrushes([], [dig])).toEqual([dig]);
    expect(edits.problem([dig])).toBeNull();
    const reached = lod.keys.filter((k) => edits.revision(lod.byKey.get(k)!) !== '');
    console.log(`the ${op} reaches ${reached.length} of ${lod.keys.length} chunks`);
    expect(reached.length).toBeGreaterThan(0);
    expect(reached.length).toBeLessThan(lod.keys.length / 4);

    const dug = new Map(chunks);
    for (const k of reached) dug.set(k, meshChunk(lod.byKey.get(k)!, edits.brushesFor(lod.byKey.get(k)!)));
    const rebuild = new Set(reached.flatMap((k) => lod.seamsReading.get(k)!));
    const dugSeams = new Map(seams);
    for (const owner of rebuild) dugSeams.set(owner, seamOf(owner, dug));
    expect(reached.some((k) => dug.get(k)!.hash !== chunks.get(k)!.hash), 'the edit changed a mesh').toBe(true);
    const report = weld(dug, dugSeams);
    expect({ boundary: report.boundaryEdges, nonManifold: report.nonManifoldEdges, misoriented: report.misorientedEdges }).toEqual({ boundary: 0, nonManifold: 0, misoriented: 0 });
    expect(report.euler).toBe(2);

    // The field at the brush's centre changed sides.
    const edited = compileToJs({ ...recipe, brushes: [dig] });
    expect(Math.sign(edited(center[0], center[1], center[2]))).toBe(op === 'dig' ? 1 : -1);
    // Undo: the reached chunks meshed again without the brush are the original meshes.
    for (const k of reached) expect(meshChunk(lod.byKey.get(k)!, []).hash).toBe(chunks.get(k)!.hash);
  });
});
