// Chunk `sr_ground_detail` (fragment stage, after three's <normal_fragment_maps>): close-range
// detail on a planet's ground (issue 20, "close-up detail that keeps its scale at 20 m"). The mesh
// resolves relief down to its cells (a few pixels each); below that, this adds a fractal bump of
// SR_GROUND_DETAIL_OCTAVES octaves of value noise, wavelengths from SR_GROUND_DETAIL_MAX_M down,
// halving, with amplitude proportional to wavelength (the same slopes at every scale, like the
// ground above), and albedo grain from the same noise. Each octave fades out as its wavelength
// nears two pixel footprints, so nothing finer than a pixel shows and the whole layer costs
// nothing past the distance where its coarsest octave resolves (a dynamic branch: the far ground,
// which is most of the screen, skips it). Octaves finer than uGroundDetailMinM are dropped: the
// planet-frame position is float32 (its ulp at the planet's radius sets that floor).
// The normal is bumped with screen-space derivatives of the height (Mikkelsen 2010, "Bump mapping
// unparametrized surfaces on the GPU"): no tangents, which DC meshes do not have.

#ifndef SR_GROUND_DETAIL_MAX_M
#define SR_GROUND_DETAIL_MAX_M 4.0
#endif

{
  // Pixel footprint in metres (the longer axis: grazing views stretch it).
  vec3 detailDx = dFdx(vGroundPos);
  vec3 detailDy = dFdy(vGroundPos);
  float detailFp = max(length(detailDx), length(detailDy));
  float detailH = 0.0;
  float detailGrain = 0.0;
  if (detailFp < 0.5 * SR_GROUND_DETAIL_MAX_M) {
    float lambda = SR_GROUND_DETAIL_MAX_M;
    for (int i = 0; i < SR_GROUND_DETAIL_OCTAVES; i++) {
      float w = smoothstep(2.0, 4.0, lambda / detailFp) * step(uGroundDetailMinM, lambda);
      if (w <= 0.0) break; // the finer octaves are smaller still
      float n = 2.0 * sr_valueNoise3(vGroundPos / lambda, uGroundSalt + 101u + uint(i)) - 1.0;
      detailH += w * 0.09 * lambda * n;
      detailGrain += w * n * (i == 0 ? 0.5 : 1.0) / float(SR_GROUND_DETAIL_OCTAVES);
      lambda *= 0.5;
    }
  }
  // Outside the branch: derivatives need every pixel of the quad (h is continuous across the edge).
  vec3 detailSx = dFdx(-vViewPosition);
  vec3 detailSy = dFdy(-vViewPosition);
  vec3 detailR1 = cross(detailSy, normal);
  vec3 detailR2 = cross(normal, detailSx);
  float detailDet = dot(detailSx, detailR1);
  vec3 detailGrad = sign(detailDet) * (dFdx(detailH) * detailR1 + dFdy(detailH) * detailR2);
  normal = normalize(abs(detailDet) * normal - detailGrad);
  diffuseColor.rgb *= 1.0 + 0.6 * detailGrain;
}
