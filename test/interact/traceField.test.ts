import { Ray, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { traceField } from '../../src/interact/picking';

/** A sphere of radius `r` at `c` with a bumpy surface (amplitude `a`): roughly a distance, its gradient up to ~1 + a/8. */
const bumpy = (c: Vector3, r: number, a: number) => (p: Vector3) =>
  p.distanceTo(c) - r - a * Math.sin(p.x / 40) * Math.sin(p.y / 40) * Math.sin(p.z / 40);

describe('a pick ray over a field (issue 45: the planet before its chunks are drawn)', () => {
  const center = new Vector3(0, 0, -1_168_000 - 300_000);
  const ray = new Ray(new Vector3(0, 0, 0), new Vector3(0, 0, -1));

  it('meets a planet 1,168 km away within 0.5 m of its surface', () => {
    const t = traceField(ray, center, 310_000, bumpy(center, 300_000, 0));
    expect(t).not.toBeNull();
    expect(Math.abs(t! - 1_168_000)).toBeLessThan(1.2);
  });

  it('meets a bumpy one on its surface (the field ≈ 0 there), and misses one the ray passes by', () => {
    const f = bumpy(center, 300_000, 30);
    const t = traceField(ray, center, 310_000, f);
    expect(t).not.toBeNull();
    expect(Math.abs(f(ray.at(t!, new Vector3())))).toBeLessThan(1.5);
    const past = new Ray(new Vector3(0, 0, 0), new Vector3(0.3, 0, -1).normalize());
    expect(traceField(past, center, 310_000, f)).toBeNull();
  });

  it('from inside the bounding sphere (a camera near the ground) it still finds the ground ahead', () => {
    const near = new Ray(center.clone().add(new Vector3(0, 0, 300_100)), new Vector3(0, 0, -1));
    const t = traceField(near, center, 310_000, bumpy(center, 300_000, 0));
    expect(Math.abs(t! - 100)).toBeLessThan(0.6);
  });
});
