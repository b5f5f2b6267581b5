// sr_map_cubesphere: chunk-space mapping for planet chunks on the cube-sphere (src/lod/cubeSphere.ts),
// for the sampling passes' sr_chunkPointM (GpuFieldSampler's mappingGlsl option).
//
// World point of face grid point (gi, gj, gk):  p = r(gk) · normalize(F + X U + Y V),
// X = tan(π/4 · (2 gi / S − 1)), Y likewise with gj, r = innerRadius + gk · heightUnit.
//
// Precision (float32): nothing absolute is formed until the very end. The CPU computes, in float64,
// per chunk (src/lod/cubeSphereGlsl.ts, cubeSphereMapUniforms): the face basis, the tangents X0, Y0
// and radius r0 at the chunk origin, the angle and radius steps per local index, and the chunk
// origin's world position split into high + low float32 parts. The shader forms only the OFFSET from
// the chunk origin, from small quantities with relative error ~1e-7:
//   ΔX = tan(X0 angle + b) − X0 = sin b (1 + X0²) / (cos b − X0 sin b)        (b = local angle)
//   d − d0 = Δc/|c| − c0 (|c|² − |c0|²) / (|c| |c0| (|c| + |c0|)),  Δc = ΔX U + ΔY V
//   p − p0 = Δr d + r0 (d − d0)
// sin/cos are Taylor series, never the GPU's built-ins (those have ABSOLUTE error, ~1e-7 at best,
// which would be 3% of a level-0 chunk's 3e-6 rad at 6,000 km).
// sr_chunkOffsetM is then accurate to ~1e-6 of the chunk's size at any radius — what camera-relative
// rendering needs. sr_chunkPointM = high + (low + offset) rounds once to float32: at 6,000 km the
// ulp is 0.5 m (±0.25 m error), at 50 km 0.004 m. So a field that can be is compiled relative to the
// chunk (docs/lod.md, "Big planets' fine levels on the GPU") and evaluated at the offset itself.

uniform mat3 sr_csBasis;        // columns: F (face normal), U (gi axis), V (gj axis)
uniform vec2 sr_csTan0;         // X0, Y0 at the chunk origin
uniform float sr_csAngleStep;   // radians per local index along gi / gj (π / (2S) · 2^level)
uniform float sr_csRadius0M;    // radius at the chunk origin
uniform float sr_csRadiusStepM; // metres per local index along gk (heightUnit · 2^level)
uniform vec3 sr_csOriginHighM;  // chunk origin world position = high + low
uniform vec3 sr_csOriginLowM;

// tan(a + b) − tan(a) for tan(a) = t0, written without a pole for a + b in (−π/2, π/2).
// sin and cos are Taylor series to b^15 / b^16 for every |b| ≤ π/2 (error < 1e-9): GPU sin/cos
// are only accurate in absolute terms (SwiftShader: ~1e-4 of a chunk for b ≥ 0.02, measured by
// test/browser/cubeSphereMap.test.ts), which is useless for the 3e-6 rad of a fine chunk.
float sr_csTanDelta(float t0, float b) {
  float b2 = b * b;
  float s = b * (1.0 - b2 / 6.0 * (1.0 - b2 / 20.0 * (1.0 - b2 / 42.0 * (1.0 - b2 / 72.0 *
            (1.0 - b2 / 110.0 * (1.0 - b2 / 156.0 * (1.0 - b2 / 210.0)))))));
  float c = 1.0 - b2 / 2.0 * (1.0 - b2 / 12.0 * (1.0 - b2 / 30.0 * (1.0 - b2 / 56.0 *
            (1.0 - b2 / 90.0 * (1.0 - b2 / 132.0 * (1.0 - b2 / 182.0 * (1.0 - b2 / 240.0)))))));
  return s * (1.0 + t0 * t0) / (c - t0 * s);
}

// Offset (metres) of local grid point `localIndex` from the chunk origin (local index 0).
vec3 sr_chunkOffsetM(vec3 localIndex) {
  vec2 b = localIndex.xy * sr_csAngleStep;
  float dX = sr_csTanDelta(sr_csTan0.x, b.x);
  float dY = sr_csTanDelta(sr_csTan0.y, b.y);
  vec3 F = sr_csBasis[0], U = sr_csBasis[1], V = sr_csBasis[2];
  vec3 c0 = F + sr_csTan0.x * U + sr_csTan0.y * V;
  float len0 = sqrt(1.0 + dot(sr_csTan0, sr_csTan0));
  float dq = dX * (2.0 * sr_csTan0.x + dX) + dY * (2.0 * sr_csTan0.y + dY);
  float len = sqrt(len0 * len0 + dq);
  vec3 dd = (dX * U + dY * V) / len - c0 * (dq / (len * len0 * (len + len0)));
  vec3 d0 = c0 / len0;
  float dr = localIndex.z * sr_csRadiusStepM;
  return dr * (d0 + dd) + sr_csRadius0M * dd;
}

// The point the field is evaluated at: body-local, or — for a field compiled chunk-relative
// (src/field/chunkRelative.ts, which defines SR_FIELD_CHUNK_RELATIVE) — the offset from the chunk's
// origin itself, which keeps its ~1e-6-of-a-chunk accuracy at any radius.
vec3 sr_chunkPointM(vec3 localIndex) {
#ifdef SR_FIELD_CHUNK_RELATIVE
  return sr_chunkOffsetM(localIndex);
#else
  return sr_csOriginHighM + (sr_csOriginLowM + sr_chunkOffsetM(localIndex));
#endif
}
