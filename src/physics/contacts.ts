/**
 * What each probe touches after a step, read from cannon-es's contact equations (PhysicsWorld's
 * afterStep judges rest, impacts and pushes from it): the surface it rests on (a collider before
 * another probe), how deep it is in rock and the rock's normal there.
 */
import { Body, Vec3, type ContactEquation } from 'cannon-es';

export interface ProbeContact {
  /** What the probe rests on: a collider, else another probe. */
  surface: Body;
  /** Deepest overlap with rock, metres (0 when it touches probes only). */
  depthM: number;
  /** Unit normal out of the rock at the deepest rock contact (towards the probe); zero without one. */
  normal: Vec3;
}

const scratchA = new Vec3();
const scratchB = new Vec3();

/**
 * Fills `out` (probe body → its contact; cleared first, records reused from `pool`) from `contacts`,
 * and returns the deepest probe-on-rock overlap, metres.
 */
export function readContacts(contacts: readonly ContactEquation[], out: Map<Body, ProbeContact>, pool: ProbeContact[]): number {
  for (const c of out.values()) pool.push(c);
  out.clear();
  let deepest = 0;
  for (const c of contacts) {
    const iProbe = c.bi.type === Body.DYNAMIC;
    const jProbe = c.bj.type === Body.DYNAMIC;
    if (iProbe && jProbe) {
      // Probe on probe: each rests on the other unless it has rock under it.
      record(out, pool, c.bi, c.bj);
      record(out, pool, c.bj, c.bi);
      continue;
    }
    if (!iProbe && !jProbe) continue;
    // g < 0 is overlap: (xj + rj) − (xi + ri) along the normal from i to j.
    c.bi.position.vadd(c.ri, scratchA);
    c.bj.position.vadd(c.rj, scratchB);
    scratchB.vsub(scratchA, scratchB);
    const depth = -scratchB.dot(c.ni);
    deepest = Math.max(deepest, depth);
    const probe = iProbe ? c.bi : c.bj;
    const rock = iProbe ? c.bj : c.bi;
    const r = record(out, pool, probe, rock);
    if (r.surface.type === Body.DYNAMIC) {
      r.surface = rock;
      r.depthM = -Infinity;
    }
    if (depth > r.depthM) {
      r.surface = rock;
      r.depthM = depth;
      // ni runs from bi to bj: out of the rock is −ni when the probe is bi.
      if (iProbe) c.ni.negate(r.normal);
      else r.normal.copy(c.ni);
    }
  }
  for (const r of out.values()) if (r.depthM === -Infinity) r.depthM = 0;
  return deepest;
}

/** The probe's record, made with `surface` when it had none. */
function record(out: Map<Body, ProbeContact>, pool: ProbeContact[], probe: Body, surface: Body): ProbeContact {
  let r = out.get(probe);
  if (!r) {
    r = pool.pop() ?? { surface, depthM: 0, normal: new Vec3() };
    r.surface = surface;
    r.depthM = surface.type === Body.DYNAMIC ? 0 : -Infinity;
    r.normal.set(0, 0, 0);
    out.set(probe, r);
  }
  return r;
}
