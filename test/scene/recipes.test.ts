import { describe, expect, it } from 'vitest';
import { compileToJs, parseRecipe, recipeBounds, type FieldNode } from '../../src/field/index';
import {
  asteroidFamily, asteroidRecipe, ASTEROID_FAMILIES, ASTEROID_RADIUS_MAX_M, PLANET_RADIUS_MAX_M, PLANET_RADIUS_MIN_M, planetClassOf, planetGround, planetRecipe,
} from '../../src/scene/index';

function sample(recipe: unknown): number[] {
  const f = compileToJs(recipe);
  const b = recipeBounds(recipe);
  const out: number[] = [];
  for (let i = 0; i < 64; i++) {
    const t = i / 64;
    out.push(f(b.sphereCenter[0] + b.sphereRadiusM * Math.sin(7 * t), b.sphereCenter[1] + b.sphereRadiusM * Math.cos(5 * t) * 0.9, b.sphereCenter[2] + b.sphereRadiusM * (t - 0.5)));
  }
  return out;
}

function types(node: FieldNode, into = new Set<string>()): Set<string> {
  into.add(node.type);
  if ('children' in node) node.children.forEach((c) => types(c, into));
  if ('child' in node) types(node.child, into);
  if (node.noise) node.noise.forEach((l) => into.add(`noise:${l.kind}`));
  if (node.craters) into.add('craters');
  if (node.warp) into.add('warp');
  return into;
}

describe('asteroidRecipe', () => {
  it('same seed → identical recipe JSON and identical field values', () => {
    for (const seed of [0, 1, 99, 123456]) {
      expect(JSON.stringify(asteroidRecipe(seed))).toBe(JSON.stringify(asteroidRecipe(seed)));
      expect(sample(asteroidRecipe(seed))).toEqual(sample(asteroidRecipe(seed)));
    }
    expect(JSON.stringify(asteroidRecipe(1))).not.toBe(JSON.stringify(asteroidRecipe(2)));
  });

  it('every seed gives a valid, canonical recipe whose family matches asteroidFamily', () => {
    for (let seed = 0; seed < 60; seed++) {
      const recipe = asteroidRecipe(seed);
      expect(JSON.stringify(parseRecipe(recipe))).toBe(JSON.stringify(recipe));
      expect(recipe.name).toBe(`asteroid ${asteroidFamily(seed)} ${seed}`);
    }
  });

  it('all six families occur within the first 60 seeds', () => {
    const seen = new Set(Array.from({ length: 60 }, (_, s) => asteroidFamily(s)));
    expect([...seen].sort()).toEqual([...ASTEROID_FAMILIES].sort());
  });

  it('families differ in what their shape does (they share three shapes: their active members differ)', () => {
    // What is active: planes that cut within 2 radii, lobes and holes within 2 radii, modifiers with amplitude or count.
    const active = (family: (typeof ASTEROID_FAMILIES)[number], seed: number) => {
      const recipe = asteroidRecipe(seed, { family });
      const r = recipeBounds(recipe).sphereRadiusM;
      const out = { planes: 0, capsules: 0, craters: 0, warp: false, lobes: 0, noise: 0 };
      const visit = (n: FieldNode, offset = 0): void => {
        if (n.type === 'plane' && n.offset < 2 * r) out.planes++;
        if (n.type === 'capsule' && Math.hypot(...n.a) < 2 * r) out.capsules++;
        if (n.type === 'ellipsoid' && Math.min(...n.radii) > 0.1 * r && offset < 2 * r) out.lobes++;
        if (n.craters) out.craters += n.craters.count;
        if (n.warp && n.warp.amplitude > 0) out.warp = true;
        out.noise += (n.noise ?? []).filter((l) => l.amplitude > 0).length;
        if ('children' in n) for (const c of n.children) visit(c, offset);
        if ('child' in n) visit(n.child, n.type === 'translate' ? offset + Math.hypot(...n.offset) : offset);
      };
      visit(recipe.root);
      return out;
    };
    for (const seed of [5, 9]) {
      const potato = active('potato', seed), binary = active('contactBinary', seed), cratered = active('cratered', seed);
      const shard = active('shard', seed), metallic = active('metallic', seed), porous = active('porous', seed);
      expect(potato.warp && potato.lobes === 1 && potato.craters >= 6 && potato.craters <= 16).toBe(true);
      expect(binary.lobes).toBe(2);
      expect(binary.warp || binary.craters > 0).toBe(false);
      expect(cratered.craters).toBeGreaterThanOrEqual(80);
      expect(cratered.noise).toBe(1);
      expect(shard.planes).toBeGreaterThanOrEqual(2);
      expect(shard.planes).toBeLessThanOrEqual(4);
      expect(metallic.planes).toBeGreaterThanOrEqual(9);
      expect(porous.capsules).toBeGreaterThanOrEqual(3);
    }
  });

  it('sizes in metres: 50 m – 2 km, a solid body at its center region', () => {
    for (let seed = 0; seed < 30; seed++) {
      const recipe = asteroidRecipe(seed);
      const b = recipeBounds(recipe);
      expect(b.sphereRadiusM).toBeGreaterThan(30);
      expect(b.sphereRadiusM).toBeLessThan(ASTEROID_RADIUS_MAX_M * 1.6);
      const f = compileToJs(recipe);
      let min = Infinity;
      for (let i = 0; i < 9 ** 3; i++) {
        const t = [i % 9, Math.floor(i / 9) % 9, Math.floor(i / 81)].map((k) => (k + 0.5) / 9);
        min = Math.min(min, f(...(t.map((v, a) => b.boxMin[a] + v * (b.boxMax[a] - b.boxMin[a])) as [number, number, number])));
      }
      expect(min).toBeLessThan(0);
    }
  });
});

describe('planetRecipe', () => {
  it('same seed → identical recipe JSON and field values', () => {
    expect(JSON.stringify(planetRecipe(3))).toBe(JSON.stringify(planetRecipe(3)));
    expect(sample(planetRecipe(3))).toEqual(sample(planetRecipe(3)));
  });

  it('radius 50 km – 6000 km, surface near the nominal radius, relief from noise, warp and (for the volume classes) shells', () => {
    for (let seed = 0; seed < 12; seed++) {
      const recipe = planetRecipe(seed);
      const terrain = { radius: planetGround(recipe).meanRadiusM };
      expect(terrain.radius).toBeGreaterThanOrEqual(PLANET_RADIUS_MIN_M);
      expect(terrain.radius).toBeLessThanOrEqual(PLANET_RADIUS_MAX_M);
      const b = recipeBounds(recipe);
      expect(b.elevationM).toBeLessThan(0.1 * terrain.radius);
      const f = compileToJs(recipe);
      expect(f(0, 0, 0)).toBeLessThan(0);
      expect(f(0, 0, terrain.radius + b.elevationM * 1.01)).toBeGreaterThan(0);
      expect(f(0, 0, terrain.radius - b.elevationM * 3)).toBeLessThan(0);
      const t = types(recipe.root);
      for (const feature of ['noise:fbm', 'warp']) expect(t.has(feature)).toBe(true);
      const cls = planetClassOf(seed);
      if (cls === 'karst' || cls === 'volcanic') for (const feature of ['shell', 'smoothSubtraction', 'smoothUnion']) expect(t.has(feature), `${cls}: ${feature}`).toBe(true);
      if (cls === 'moon') expect(t.has('noise:craters') && t.has('craters')).toBe(true);
    }
  });

  it('the JS back end keeps double precision at planet scale (millimetre steps resolve)', () => {
    const recipe = planetRecipe(7);
    const f = compileToJs(recipe);
    const r = planetGround(recipe).meanRadiusM;
    // Float32 positions are 0.25–0.5 m apart out here; doubles resolve a smooth 1 mm ramp.
    const a = f(r, 0, 0), b = f(r + 1e-3, 0, 0), c = f(r + 2e-3, 0, 0);
    expect(b - a).toBeGreaterThan(1e-4);
    expect(Math.abs((c - b) - (b - a))).toBeLessThan(1e-6);
  });
});

describe('cut edges (issue 20: the shading seam of seed 7, a shard)', () => {
  /** Seed 7's cut shape without its rotation and noise, as a recipe; `sharp`: a plain intersection (the control). */
  function shape(sharp: boolean): { f: (x: number, y: number, z: number) => number; children: FieldNode[]; blend: number } {
    const root = asteroidRecipe(7).root as FieldNode & { child: FieldNode };
    const cut = root.child as FieldNode & { blend: number; children: FieldNode[] };
    expect(cut.type).toBe('smoothIntersection');
    const node = sharp ? { type: 'intersection', children: cut.children } : { type: 'smoothIntersection', blend: cut.blend, children: cut.children };
    return { f: compileToJs({ version: 1, root: node }), children: cut.children, blend: cut.blend };
  }

  const gradient = (f: (x: number, y: number, z: number) => number, p: number[]): number[] => {
    const h = 1e-3;
    const g = [0, 1, 2].map((a) => {
      const q = [...p], r = [...p];
      q[a] += h;
      r[a] -= h;
      return (f(q[0], q[1], q[2]) - f(r[0], r[1], r[2])) / (2 * h);
    });
    const l = Math.hypot(g[0], g[1], g[2]);
    return g.map((v) => v / l);
  };

  /** Onto the surface along the gradient (Newton steps). */
  const project = (f: (x: number, y: number, z: number) => number, p: number[]): number[] => {
    let q = [...p];
    for (let i = 0; i < 30; i++) {
      const d = f(q[0], q[1], q[2]);
      const g = gradient(f, q);
      q = q.map((v, a) => v - d * g[a]);
    }
    return q;
  };

  it('the gradient turns smoothly across the edge where a cut meets a face of the box; sharp, it jumps', () => {
    const sharp = shape(true), smooth = shape(false);
    const box = smooth.children[0] as Extract<FieldNode, { type: 'roundBox' }>;
    const planes = smooth.children.slice(1).filter((c) => c.type === 'plane' && c.offset < box.halfExtents[0] * 2) as Extract<FieldNode, { type: 'plane' }>[];
    // An edge of the sharp shape between the box's +y face and a cut, 10–60° apart, on the surface.
    let edge: { c: number[]; across: number[]; angleDeg: number } | null = null;
    for (const pl of planes) {
      const n = pl.normal;
      const y = box.halfExtents[1];
      for (const z of [0, 0.3 * box.halfExtents[2], -0.3 * box.halfExtents[2]]) {
        const x = (pl.offset - n[1] * y - n[2] * z) / n[0];
        const c = [x, y, z];
        const angleDeg = (Math.acos(Math.min(1, Math.abs(n[1]))) * 180) / Math.PI;
        if (Math.abs(sharp.f(x, y, z)) > 1e-6 || angleDeg < 10 || angleDeg > 60) continue;
        // Across the edge, in the face's plane: the cut's normal less its +y part.
        const across = [n[0], 0, n[2]];
        const l = Math.hypot(across[0], across[1], across[2]);
        edge = { c, across: across.map((v) => v / l), angleDeg };
        break;
      }
      if (edge) break;
    }
    expect(edge, 'seed 7 has a cut meeting the +y face').not.toBeNull();
    const { c, across, angleDeg } = edge!;
    const blend = smooth.blend;
    /** Largest turn of the surface normal between neighbours 0.25 m apart, over ±2 blends across the edge (degrees). */
    const worstTurn = (f: (x: number, y: number, z: number) => number): number => {
      let worst = 0;
      let prev: number[] | null = null;
      for (let s = -2 * blend; s <= 2 * blend; s += 0.25) {
        const p = project(f, c.map((v, a) => v + s * across[a]));
        const g = gradient(f, p);
        if (prev) worst = Math.max(worst, (Math.acos(Math.min(1, g[0] * prev[0] + g[1] * prev[1] + g[2] * prev[2])) * 180) / Math.PI);
        prev = g;
      }
      return worst;
    };
    const sharpTurn = worstTurn(sharp.f), smoothTurn = worstTurn(smooth.f);
    console.log(`seed 7 cut edge ${angleDeg.toFixed(1)}°, blend ${blend.toFixed(2)} m: largest turn per 0.25 m: sharp ${sharpTurn.toFixed(1)}°, smooth ${smoothTurn.toFixed(2)}°`);
    expect(sharpTurn).toBeGreaterThan(0.8 * angleDeg);
    expect(smoothTurn).toBeLessThan(0.15 * angleDeg);
  });
});
