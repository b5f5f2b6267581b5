// Per-shader chunk `sr_sun_direct`: replaces three's `#include <lights_fragment_begin>` in a
// physical (standard) fragment shader — BodyMaterial's, and MeshStandardMaterial's through
// src/render/sunCascades.ts — so the sun is applied ONCE with its cascaded shadow. Needs
// `sr_sun_shadow` (glsl/sr_sun_shadow.glsl) included after <shadowmap_pars_fragment>.
// three's light accumulation with its direct-light loops switched off (they run only with
// RE_Direct defined): it still sets up the geometry, the multi-scattering terms and the
// indirect light. The directional lights follow, with the sun's cascaded shadow
// (sr_sun_shadow); this material has no point, spot or area lights (the project uses none).
#undef RE_Direct
#include <lights_fragment_begin>
#define RE_Direct RE_Direct_Physical
#if NUM_DIR_LIGHTS > 0
{
  float sunShadow = 1.0;
  #if defined( USE_SHADOWMAP ) && NUM_DIR_LIGHT_SHADOWS > 0
    if ( receiveShadow ) sunShadow = sr_sunShadow();
  #endif
  DirectionalLight directionalLight;
  #pragma unroll_loop_start
  for ( int i = 0; i < NUM_DIR_LIGHTS; i ++ ) {
    // Lights 1 … NUM_DIR_LIGHT_SHADOWS − 1 are the sun's other cascades: maps, no light.
    #if ( UNROLLED_LOOP_INDEX == 0 ) || ( UNROLLED_LOOP_INDEX >= NUM_DIR_LIGHT_SHADOWS )
      directionalLight = directionalLights[ i ];
      getDirectionalLightInfo( directionalLight, directLight );
      #if ( UNROLLED_LOOP_INDEX == 0 ) && ( NUM_DIR_LIGHT_SHADOWS > 0 )
        directLight.color *= sunShadow;
      #endif
      #if ( UNROLLED_LOOP_INDEX == 0 ) && defined( SR_SUN_TRANSMITTANCE )
        // Through a planet's air (glsl/sr_aerial.glsl): redder and dimmer as the sun sets.
        directLight.color *= SR_SUN_TRANSMITTANCE;
      #endif
      RE_Direct( directLight, geometryPosition, geometryNormal, geometryViewDir, geometryClearcoatNormal, material, reflectedLight );
    #endif
  }
  #pragma unroll_loop_end
}
#endif
