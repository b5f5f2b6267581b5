import { Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { pushOutside } from '../../src/interact/keepOutside';
import { compileToJs } from '../../src/field/index';
import { asteroidRecipe } from '../../src/scene/index';

describe('the camera is pushed out of a body (issue 45)', () => {
  it('out of a sphere along its normal, to the margin', () => {
    const sphere = (p: Vector3) => p.length() - 100;
    const p = new Vector3(30, 40, 0); // 50 m deep
    expect(pushOutside(p, sphere, 1, new Vector3(), 200)).toBe(true);
    expect(sphere(p)).toBeGreaterThanOrEqual(1);
    expect(sphere(p)).toBeLessThan(1.5);
    expect(p.clone().normalize().distanceTo(new Vector3(0.6, 0.8, 0))).toBeLessThan(1e-4);
    expect(pushOutside(p, sphere, 1, new Vector3(), 200)).toBe(false);
  });

  it('out of every seeded asteroid from points all through it', () => {
    for (const seed of [1, 2, 3, 6, 11, 42]) {
      const f = compileToJs(asteroidRecipe(seed));
      const field = (p: Vector3) => f(p.x, p.y, p.z);
      for (let i = 0; i < 50; i++) {
        const d = new Vector3(Math.sin(i * 1.7), Math.cos(i * 2.3), Math.sin(i * 0.9 + 1)).normalize();
        const p = d.multiplyScalar((i % 10) * 40);
        if (field(p) >= 1) continue;
        pushOutside(p, field, 1, new Vector3(), 4000);
        expect(field(p), `seed ${seed} point ${i}`).toBeGreaterThanOrEqual(1);
      }
    }
  });
});
