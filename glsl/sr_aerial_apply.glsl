// Chunk `sr_aerial_apply` (before three's <tonemapping_fragment>): aerial perspective on the
// fragment's colour (glsl/sr_aerial.glsl).
gl_FragColor.rgb = gl_FragColor.rgb * vAerialT + vAerialL;
