// Chunk `sr_ground_detail` (fragment stage, after three's <normal_fragment_maps>): close-range
// detail on a planet's ground (issue 20, "close-up detail that keeps its scale at 20 m"). The mesh
// resolves relief down to its cells (a few pixels each); below that, this adds a fractal bump of
// SR_GROUND_DETAIL_OCTAVES octaves of gradient noise, wavelengths from SR_GROUND_DETAIL_MAX_M down,
// halving, with amplitude proportional to wavelength (the same slopes at every scale, like the
// ground above), and albedo grain from the same noise. Each octave fades out as its wavelength
// nears a few pixel footprints, so nothing finer than a pixel shows and the whole layer costs
// nothing past the distance where its coarsest octave resolves (a dynamic branch: the far ground,
// which is most of the screen, skips it). Octaves finer than uGroundDetailMinM are dropped: the
// planet-frame position is float32 (its ulp at the planet's radius sets that floor). It is rebuilt
// from three's view-space position, not passed as a varying of its own: near the ground the
// triangles are a pixel or two, and every varying costs there (the layer cost ~4 ms a frame at
// 20 m on the H100 with one).

// The bump uses the noise's analytic gradient, made tangent to the surface: screen-space
// derivatives of the height (Mikkelsen's bump mapping) broke into 2-pixel stipples where the
// triangles are a pixel or two, as a 2×2 quad then spans several of them.

#ifndef SR_GROUND_DETAIL_MAX_M
#define SR_GROUND_DETAIL_MAX_M 1.0
#endif

{
  // The planet's frame is the world's, unrotated: view space back to it (transpose of the view
  // rotation). The camera comes in two parts (groundCameraSplit): high + (low + offset) rounds the
  // same way for a ground point wherever the camera is, so the pattern does not jump as it moves.
  vec3 detailPos = uGroundCameraHigh + (uGroundCameraLow + (-vViewPosition) * mat3(viewMatrix));
  // Pixel footprint in metres (the longer axis: grazing views stretch it), taken at the top of main
  // before any discard (src/render/planetGround.ts). Only for fading.
  float detailFp = srGroundFootprintM;
  if (detailFp < 0.4 * SR_GROUND_DETAIL_MAX_M) {
    vec3 detailGrad = vec3(0.0);
    float detailGrain = 0.0;
    float lambda = SR_GROUND_DETAIL_MAX_M;
    // Each octave's lattice turned against the last (an orthonormal turn), so no two octaves'
    // grids line up.
    mat3 turn = mat3(1.0);
    for (int i = 0; i < SR_GROUND_DETAIL_OCTAVES; i++) {
      float w = smoothstep(2.5, 5.0, lambda / detailFp) * step(uGroundDetailMinM, lambda);
      if (w <= 0.0) break; // the finer octaves are smaller still
      vec4 n = sr_gradientNoise3Grad(turn * detailPos / lambda, uGroundSalt + 101u + uint(i));
      // Height 0.12 λ n: its gradient in metres per metre, back in the planet's axes.
      detailGrad += w * 0.12 * (n.xyz * turn);
      turn = mat3(0.0, 0.8, 0.6, -0.8, 0.36, -0.48, -0.6, -0.48, 0.64) * turn;
      detailGrain += w * n.w * (i == 0 ? 0.5 : 1.0) / float(SR_GROUND_DETAIL_OCTAVES);
      lambda *= 0.5;
    }
    // Per material, by the ground's roughness (the vertex colour's alpha, src/field/groundColours.ts):
    // rock and regolith (0.85–0.95) take the whole bump and grain; ice and snow (0.55) under half;
    // the sea floor (0.3) and glowing lava (bytes under 64) a third, smooth as they are.
    float detailMaterial = mix(0.3, 1.0, smoothstep(0.45, 0.85, vGround.a));
    detailGrad *= detailMaterial;
    detailGrain *= detailMaterial;
    // The gradient to view space, tangent to the surface.
    vec3 g = mat3(viewMatrix) * detailGrad;
    normal = normalize(normal - (g - normal * dot(normal, g)));
    diffuseColor.rgb *= 1.0 + 0.6 * detailGrain;
  }
}
