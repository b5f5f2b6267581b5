/** A planet's ground colours per vertex (src/field/groundColours.ts): what each material rule does, and determinism. */
import { describe, expect, it } from 'vitest';
import { GLOW_ALPHA_BYTES, groundPalette, groundVertexColours, type GroundPalette } from '../../src/field/groundColours';

const R = 60e3;
const palette: GroundPalette = groundPalette({ seed: 4, meanRadiusM: R, reliefM: 400 });

/** Albedo (linear, decoded as the shader does) and roughness at one point with one normal. */
function colourAt(p: [number, number, number], n: [number, number, number], footprintM = 1, g = palette): { albedo: number[]; roughness: number } {
  const c = groundVertexColours(new Float32Array([0, 0, 0]), new Float32Array(n), p, footprintM, g);
  return { albedo: [0, 1, 2].map((i) => (c[i] / 255) ** 2), roughness: c[3] / 255 };
}
const luminance = (a: number[]): number => 0.2126 * a[0] + 0.7152 * a[1] + 0.0722 * a[2];

/** A point at radius r along unit direction d, with its normal straight up or tilted by `tilt` radians. */
function at(d: [number, number, number], r: number, tilt = 0): { p: [number, number, number]; n: [number, number, number] } {
  const len = Math.hypot(...d);
  const u = d.map((c) => c / len) as [number, number, number];
  // A tangent: perpendicular to u.
  const t0 = Math.abs(u[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
  const dot = t0[0] * u[0] + t0[1] * u[1] + t0[2] * u[2];
  const t = t0.map((c, i) => c - dot * u[i]);
  const tl = Math.hypot(...t);
  const n = u.map((c, i) => Math.cos(tilt) * c + Math.sin(tilt) * (t[i] / tl)) as [number, number, number];
  return { p: u.map((c) => c * r) as [number, number, number], n };
}

describe('groundColours', () => {
  it('the palette is the seed\'s: the same seed the same palette, another seed another', () => {
    expect(groundPalette({ seed: 4, meanRadiusM: R, reliefM: 400 })).toEqual(palette);
    expect(groundPalette({ seed: 5, meanRadiusM: R, reliefM: 400 }).salt).not.toBe(palette.salt);
    // Maria are darker than the highlands, rock than regolith; ice is bright.
    expect(luminance(palette.mare)).toBeLessThan(luminance(palette.regolith));
    expect(luminance(palette.ice)).toBeGreaterThan(0.6);
  });

  it('low basins are darker (maria) than high ground, on average over many places', () => {
    let low = 0, high = 0;
    for (let i = 0; i < 64; i++) {
      const d: [number, number, number] = [Math.cos(i * 2.4), 0.3 * Math.sin(i * 1.7), Math.sin(i * 2.4)];
      low += luminance(colourAt(at(d, R - 400).p, at(d, R - 400).n).albedo);
      high += luminance(colourAt(at(d, R + 400).p, at(d, R + 400).n).albedo);
    }
    expect(low / 64).toBeLessThan(0.8 * (high / 64));
  });

  it('steep slopes are bare rock, the poles ice on gentle ground', () => {
    const d: [number, number, number] = [1, 0.1, 0.3];
    const flat = colourAt(at(d, R + 300).p, at(d, R + 300).n);
    const steep = colourAt(at(d, R + 300, 1.2).p, at(d, R + 300, 1.2).n);
    expect(flat.roughness).toBeCloseTo(0.95, 1);
    expect(steep.roughness).toBeCloseTo(0.85, 1);
    const pole = at([0.05, 1, 0.02], R + 300);
    const polar = colourAt(pole.p, pole.n);
    expect(polar.roughness).toBeCloseTo(0.55, 1);
    expect(luminance(polar.albedo)).toBeGreaterThan(0.5);
    // A cliff at the pole sheds its ice.
    const cliff = at([0.05, 1, 0.02], R + 300, 1.2);
    expect(luminance(colourAt(cliff.p, cliff.n).albedo)).toBeLessThan(0.3);
  });

  it('tone varies from place to place, and coarse meshes (a large footprint) lose only the fine octaves', () => {
    const tones = new Set<number>();
    const spread = (footprintM: number): number => {
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < 40; i++) {
        // Points 10 m apart along one line (400 m): mostly the local octaves (300 and 150 m) vary over it.
        const q = at([1, 0.2, 0.3 + (i * 10) / R], R + 200);
        const l = luminance(colourAt(q.p, q.n, footprintM).albedo);
        tones.add(Math.round(l * 1000));
        lo = Math.min(lo, l); hi = Math.max(hi, l);
      }
      return hi - lo;
    };
    const fine = spread(1);
    expect(tones.size).toBeGreaterThan(5);
    expect(fine).toBeGreaterThan(0.005);
    expect(spread(400)).toBeLessThan(0.25 * fine);
  });

  it('is deterministic and reads int16 normals like float ones', () => {
    const positions = new Float32Array([0, 0, 0, 10, 2, -3, 40, -7, 12]);
    const n = new Float32Array([0.6, 0.8, 0, 0, 1, 0, 0.28, 0.96, 0]);
    const origin: [number, number, number] = [R * 0.6, R * 0.8, 0];
    const a = groundVertexColours(positions, n, origin, 2, palette);
    expect(groundVertexColours(positions, n, origin, 2, palette)).toEqual(a);
    const n16 = Int16Array.from(n, (c) => Math.round(c * 0x7fff));
    const b = groundVertexColours(positions, n16, origin, 2, palette);
    for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(1);
  });
});

describe('ground by class (issue 41)', () => {
  const R = 62e3;
  /** One vertex at `radiusM` over the equator's direction, its normal up. */
  const colourAt = (g: GroundPalette, radiusM: number): number[] =>
    Array.from(groundVertexColours(new Float32Array([0, 0, 0]), new Float32Array([1, 0, 0]), [radiusM, 0, 0], 1, g));
  it('under the sea the ground fades into the deep water with depth; the shore is sand', () => {
    const sea = { radiusM: R + 100, deep: [0.004, 0.025, 0.06] as [number, number, number], clarityM: 10 };
    const g = groundPalette({ seed: 4, meanRadiusM: R, reliefM: 1000, planetClass: 'ocean', sea });
    const shallow = colourAt(g, R + 99), deep = colourAt(g, R + 20), dry = colourAt(g, R + 400);
    // Deep water is darker than the shallows and bluer than red.
    expect(deep[0] + deep[1]).toBeLessThan(shallow[0] + shallow[1]);
    expect(deep[2]).toBeGreaterThan(deep[0]);
    expect(deep[0]).toBeLessThanOrEqual(Math.ceil(255 * Math.sqrt(0.004)) + 1);
    // Just over the shore: sand's warm tone.
    const shore = colourAt(g, R + 102);
    expect(shore[0]).toBeGreaterThan(dry[2]);
  });
  it('surf: white water along the first metre or so of the sea, broken into patches; none in deeper water', () => {
    const sea = { radiusM: R + 100, deep: [0.004, 0.025, 0.06] as [number, number, number], clarityM: 10 };
    const g = groundPalette({ seed: 4, meanRadiusM: R, reliefM: 1000, planetClass: 'ocean', sea });
    /** Mean luminance-ish (byte sum) over 400 places 2 m apart at depth `depthM` under the sea. */
    const band = (depthM: number): { mean: number; min: number; max: number } => {
      const n = 400, r = R + 100 - depthM;
      const positions = new Float32Array(3 * n), normals = new Float32Array(3 * n);
      for (let i = 0; i < n; i++) {
        const a = (i * 2) / r;
        positions.set([Math.cos(a) * r, 0, Math.sin(a) * r], 3 * i);
        normals.set([Math.cos(a), 0, Math.sin(a)], 3 * i);
      }
      const c = groundVertexColours(positions, normals, [0, 0, 0], 1, g);
      const sums = Array.from({ length: n }, (_, i) => c[4 * i] + c[4 * i + 1] + c[4 * i + 2]);
      return { mean: sums.reduce((x, y) => x + y, 0) / n, min: Math.min(...sums), max: Math.max(...sums) };
    };
    const surf = band(0.8), deeper = band(4);
    expect(surf.mean).toBeGreaterThan(deeper.mean + 100);
    // Broken: some places foam, some not.
    expect(surf.max - surf.min).toBeGreaterThan(150);
    // Without a sea, no surf.
    expect(groundPalette({ seed: 4, meanRadiusM: R, reliefM: 1000, planetClass: 'alpine' }).sea).toBeNull();
  });
  it('classes differ: an ice world is bright, a volcanic one dark; snow over an alpine snowline', () => {
    const ice = colourAt(groundPalette({ seed: 4, meanRadiusM: R, reliefM: 1000, planetClass: 'ice' }), R);
    const lava = colourAt(groundPalette({ seed: 4, meanRadiusM: R, reliefM: 1000, planetClass: 'volcanic' }), R + 300);
    expect(ice[0] + ice[1] + ice[2]).toBeGreaterThan(3 * 180);
    expect(lava[0] + lava[1] + lava[2]).toBeLessThan(3 * 110);
    const alpine = groundPalette({ seed: 4, meanRadiusM: R, reliefM: 1000, planetClass: 'alpine' });
    const peak = colourAt(alpine, R + 900), valley = colourAt(alpine, R - 200);
    expect(peak[0] + peak[1] + peak[2]).toBeGreaterThan(valley[0] + valley[1] + valley[2] + 150);
  });

  it('a volcanic world glows in the lowlands\' cracks and lakes, never on the heights; no other class glows', () => {
    const volcanic = groundPalette({ seed: 4, meanRadiusM: R, reliefM: 1000, planetClass: 'volcanic' });
    expect(volcanic.lava).toBe(true);
    /** Share of glowing vertices (alpha byte under 64) over 4,000 places on a band at `radiusM`, 10 m apart. */
    const glowing = (g: GroundPalette, radiusM: number, footprintM: number): { share: number; mean: number } => {
      const n = 4000;
      const positions = new Float32Array(3 * n), normals = new Float32Array(3 * n);
      for (let i = 0; i < n; i++) {
        const a = (i * 10) / radiusM, b = 0.3 * Math.sin(i * 0.0007);
        const d = [Math.cos(a) * Math.cos(b), Math.sin(b), Math.sin(a) * Math.cos(b)];
        positions.set(d.map((c) => c * radiusM), 3 * i);
        normals.set(d, 3 * i);
      }
      const c = groundVertexColours(positions, normals, [0, 0, 0], footprintM, g);
      let count = 0, sum = 0;
      for (let i = 0; i < n; i++) {
        const byte = c[4 * i + 3];
        if (byte < GLOW_ALPHA_BYTES) { count++; sum += 1 - byte / GLOW_ALPHA_BYTES; }
      }
      return { share: count / n, mean: sum / n };
    };
    const low = glowing(volcanic, R - 600, 1), high = glowing(volcanic, R + 600, 1);
    expect(low.share).toBeGreaterThan(0.03);
    expect(low.share).toBeLessThan(0.8);
    expect(high.share).toBe(0);
    // A coarse mesh (400 m cells) glows as much on average, within a factor of three, not in whole triangles.
    const coarse = glowing(volcanic, R - 600, 400);
    expect(coarse.mean).toBeGreaterThan(low.mean / 3);
    expect(coarse.mean).toBeLessThan(low.mean * 3);
    for (const planetClass of ['moon', 'desert', 'alpine', 'ocean', 'ice', 'karst']) {
      const g = groundPalette({ seed: 4, meanRadiusM: R, reliefM: 1000, planetClass });
      expect(g.lava).toBe(false);
      expect(glowing(g, R - 600, 1).share).toBe(0);
    }
  });
});
