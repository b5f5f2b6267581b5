// Spliced into three's OutputShader after it reads the frame (src/render/bloom.ts): the bloom,
// half size and linear, added before tone mapping as UnrealBloomPass's ONE, ONE blend added it.
gl_FragColor.rgb += texture2D( tBloom, vUv ).rgb;
