// Per-shader chunk `sr_sun_shadow` (BodyMaterial passes it to glslWithIncludes; not in the
// src/field registry, which holds the field layer's chunks).
// The sun's shadow over cascaded shadow maps (src/render/Sun.ts): every shadow-casting
// directional light is one cascade of the sun, nearest (finest map) first; cascade 0 is the
// light that carries the sun's colour, the others have intensity 0 and only supply maps.
// Needs three's <shadowmap_pars_fragment> (and, in the vertex stage, <shadowmap_vertex>, which
// fills vDirectionalShadowCoord[i] for every cascade).
//
// The cascade is picked per fragment by where it falls in the maps, not by view depth: the
// finest map that contains the fragment (with the PCF kernel's margin, and inside its depth
// range) wins, so the choice needs no split uniforms and works whatever space the camera is in
// (log depth, floating origin). Within SR_CASCADE_BLEND of a map's edge (a fraction of the map)
// the fragment blends towards the next cascade, so the change in resolution has no seam; past
// the last map's edge the shadow fades out to lit. With one cascade this is three's getShadow.

#ifndef SR_CASCADE_BLEND
#define SR_CASCADE_BLEND 0.1
#endif

#if defined( USE_SHADOWMAP ) && NUM_DIR_LIGHT_SHADOWS > 1

// How much of a fragment cascade `coord` may take: 0 outside the map (less the PCF margin) or
// outside its depth range, rising to 1 over the blend band inside the edge.
float sr_cascadeWeight( vec4 coord, vec2 mapSize, float radiusTexels ) {
  vec3 c = coord.xyz / coord.w;
  if ( c.z < 0.0 || c.z > 1.0 ) return 0.0;
  float margin = ( radiusTexels + 1.5 ) / mapSize.x;
  float edge = min( min( c.x, 1.0 - c.x ), min( c.y, 1.0 - c.y ) ) - margin;
  return smoothstep( 0.0, SR_CASCADE_BLEND, edge );
}

#endif

#if defined( USE_SHADOWMAP ) && NUM_DIR_LIGHT_SHADOWS > 0

// 0 (in shadow) … 1 (lit) for the sun at this fragment.
float sr_sunShadow() {
  #if NUM_DIR_LIGHT_SHADOWS == 1
    DirectionalLightShadow s0 = directionalLightShadows[ 0 ];
    return getShadow( directionalShadowMap[ 0 ], s0.shadowMapSize, s0.shadowIntensity, s0.shadowBias, s0.shadowRadius, vDirectionalShadowCoord[ 0 ] );
  #else
    // Finest first: each cascade takes its weight of what the finer ones left.
    float shadow = 0.0;
    float remaining = 1.0;
    DirectionalLightShadow cascade;
    float weight;
    #pragma unroll_loop_start
    for ( int i = 0; i < NUM_DIR_LIGHT_SHADOWS; i ++ ) {
      if ( remaining > 0.0 ) {
        cascade = directionalLightShadows[ i ];
        weight = remaining * sr_cascadeWeight( vDirectionalShadowCoord[ i ], cascade.shadowMapSize, cascade.shadowRadius );
        if ( weight > 0.0 ) {
          shadow += weight * getShadow( directionalShadowMap[ i ], cascade.shadowMapSize, cascade.shadowIntensity, cascade.shadowBias, cascade.shadowRadius, vDirectionalShadowCoord[ i ] );
          remaining -= weight;
        }
      }
    }
    #pragma unroll_loop_end
    // Beyond every map: lit.
    return shadow + remaining;
  #endif
}

#endif
