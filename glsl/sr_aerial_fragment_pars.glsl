// Chunk `sr_aerial_fragment_pars`: what glsl/sr_aerial.glsl computed per vertex, for the fragment
// stage: the sun through the air (SR_SUN_TRANSMITTANCE, used by `sr_sun_direct`) and the aerial
// perspective `sr_aerial_apply` puts on the colour.
varying vec3 vAerialT;
varying vec3 vAerialL;
varying vec3 vAerialSunT;

#define SR_SUN_TRANSMITTANCE vAerialSunT
