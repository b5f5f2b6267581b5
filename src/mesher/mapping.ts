import type { GridMapping } from './types.ts';

/**
 * Cartesian mapping: world = originWorld + grid * unitWorld. Uniform scale, so gradients taken in
 * grid coordinates are already world normals.
 */
export function cartesianMapping(
  unitWorld = 1,
  originWorld: readonly [number, number, number] = [0, 0, 0],
): GridMapping {
  const [ox, oy, oz] = originWorld;
  return {
    toWorld(gx, gy, gz, out) {
      out[0] = ox + gx * unitWorld;
      out[1] = oy + gy * unitWorld;
      out[2] = oz + gz * unitWorld;
    },
  };
}

export const IDENTITY_MAPPING: GridMapping = cartesianMapping();
