import { BackSide, GLSL3, Mesh, ShaderMaterial, SphereGeometry } from 'three';
import { glslWithIncludes } from '../field/glslChunks';
import vertexShader from '../../glsl/backdrop.vert.glsl?raw';
import fragmentShader from '../../glsl/backdrop.frag.glsl?raw';

/**
 * A seeded star backdrop drawn per frame on a camera-centred sphere. Stand-in until the
 * procedural cubemap sky (rendered once per seed) lands; it proves the GLSL file/include
 * path end to end.
 */
export class Backdrop extends Mesh<SphereGeometry, ShaderMaterial> {
  constructor(seed: number) {
    super(
      new SphereGeometry(1, 32, 16),
      new ShaderMaterial({
        glslVersion: GLSL3,
        vertexShader: glslWithIncludes(vertexShader, 'backdrop.vert'),
        fragmentShader: glslWithIncludes(fragmentShader, 'backdrop.frag'),
        uniforms: { uSeed: { value: seed >>> 0 } },
        side: BackSide,
        depthWrite: false,
      }),
    );
    this.name = 'backdrop';
    this.frustumCulled = false;
    this.renderOrder = -1000;
  }

  setSeed(seed: number): void {
    this.material.uniforms.uSeed.value = seed >>> 0;
  }

  override dispose(): void {
    this.geometry.dispose();
    this.material.dispose();
  }
}
