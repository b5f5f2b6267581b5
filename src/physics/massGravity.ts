/**
 * A small body's pull from its shape (issue 45): the body's inside, found by its field on a coarse
 * grid, as equal point masses, scaled so the pull is `surfaceG` at the bounding radius as before.
 *
 * Why not toward the bounding sphere's centre: explore 1's asteroid 0 is a contact binary, and
 * pulled toward the point between its lobes the inner flank of each lobe is a 45–70° slope. A probe
 * landing there rolled down it for minutes (Node: 0.7–1.7 m/s after 90 s of scene time), however its
 * contacts were judged. Pulled by the lobes' mass, those flanks are floors, as on real contact binaries
 * (slopes mostly under 30–40° on Itokawa and Arrokoth), and a probe rests where it lands.
 *
 * Pure: a FieldFn in, typed arrays out; positions in the body's own frame (the recipe's), metres.
 */
import type { FieldFn } from '../field/index';

/** Cells a side of the grid the inside is found on. */
export const MASS_CELLS = 16;

export interface MassModel {
  /** Point masses, xyz relative to `centerM`, in the recipe's frame, metres. */
  points: Float64Array;
  /** GM of each point, m³/s². */
  gmEach: number;
  /** Plummer softening, m² (half a cell, squared): no point pulls without bound near it. */
  softeningM2: number;
}

/**
 * The mass model of a body whose field is `field` (negative inside), within its bounding sphere
 * (`centerM`, `radiusM`, recipe frame), pulling `surfaceG` at `radiusM` from the centre. A body the
 * grid finds no inside of gets one point at its centre.
 */
export function massModel(field: FieldFn, centerM: readonly number[], radiusM: number, surfaceG: number, cells = MASS_CELLS): MassModel {
  const step = (2 * radiusM) / cells;
  const xyz: number[] = [];
  for (let k = 0; k < cells; k++) {
    for (let j = 0; j < cells; j++) {
      for (let i = 0; i < cells; i++) {
        const x = -radiusM + (i + 0.5) * step, y = -radiusM + (j + 0.5) * step, z = -radiusM + (k + 0.5) * step;
        if (field(centerM[0] + x, centerM[1] + y, centerM[2] + z) < 0) xyz.push(x, y, z);
      }
    }
  }
  if (xyz.length === 0) xyz.push(0, 0, 0);
  const n = xyz.length / 3;
  return { points: Float64Array.from(xyz), gmEach: (surfaceG * radiusM * radiusM) / n, softeningM2: (step / 2) ** 2 };
}

/** The pull at `p` (relative to the model's centre, its frame), m/s², written to `out`. */
export function massGravity(model: MassModel, px: number, py: number, pz: number, out: [number, number, number]): [number, number, number] {
  const pts = model.points;
  let ax = 0, ay = 0, az = 0;
  for (let i = 0; i < pts.length; i += 3) {
    const dx = pts[i] - px, dy = pts[i + 1] - py, dz = pts[i + 2] - pz;
    const d2 = dx * dx + dy * dy + dz * dz + model.softeningM2;
    const inv = 1 / (d2 * Math.sqrt(d2));
    ax += dx * inv;
    ay += dy * inv;
    az += dz * inv;
  }
  out[0] = ax * model.gmEach;
  out[1] = ay * model.gmEach;
  out[2] = az * model.gmEach;
  return out;
}
