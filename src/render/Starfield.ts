/**
 * Stars as crisp points (issue 20): drawn each frame at infinity as GL points of a pixel or two,
 * behind everything, with a magnitude distribution and colour temperatures, instead of Gaussians in
 * the sky cube map (magnified texels read as soft discs). Seeded: the same sky seed, the same stars.
 *
 * - Magnitudes follow N(< m) ∝ 10^(0.5 m) down to {@link FAINTEST_MAG}, as the real sky's counts do
 *   near the galactic plane's average; with 9,000 stars about 20 are brighter than magnitude 1.
 * - Brightness is flux^0.8 (a display curve: the sky's 10³ range of flux does not fit a frame);
 *   stars brighter than magnitude 1.5 get a small glare around their core.
 * - Colours from a black body's temperature (3,000–25,000 K, most 4,000–7,000 K), paled 30 % toward white.
 * - 45 % lie along the seed's galactic band (its normal from the sky palette), as in the nebula.
 */
import { AdditiveBlending, BufferAttribute, BufferGeometry, Points, ShaderMaterial, type Vector3 } from 'three';
import { Prng } from '../field/prng';
import { meshResources, type Disposable } from './disposal';
import { glslWithIncludes } from './renderGlslChunks';
import { THREE_CHUNK_NAMES } from './BodyMaterial';
import vertexShader from '../../glsl/stars.vert.glsl?raw';
import fragmentShader from '../../glsl/stars.frag.glsl?raw';

export const STAR_COUNT = 9000;
/** The faintest magnitude drawn. */
export const FAINTEST_MAG = 6.5;
/** Display brightness of a magnitude-0 star (linear HDR, before exposure and tone mapping). */
const MAG0_INTENSITY = 8;
/** Core size, pixels (at pixel ratio 1); bright stars' points grow to hold their glare. */
const CORE_PX = 2;
const MAX_GLARE_PX = 11;

export class Starfield implements Disposable {
  readonly points: Points<BufferGeometry, ShaderMaterial>;
  /** Stars brighter than magnitude 1 (stats, tests). */
  brightCount = 0;

  constructor(private readonly brightness = 1) {
    const geometry = new BufferGeometry();
    const material = new ShaderMaterial({
      name: 'Starfield',
      vertexShader: glslWithIncludes(vertexShader, 'stars.vert', { external: THREE_CHUNK_NAMES }),
      fragmentShader: glslWithIncludes(fragmentShader, 'stars.frag', { external: THREE_CHUNK_NAMES }),
      uniforms: { uPixelRatio: { value: 1 }, uBrightness: { value: 1 } },
      blending: AdditiveBlending,
      depthTest: false,
      depthWrite: false,
    });
    this.points = new Points(geometry, material);
    this.points.name = 'stars';
    this.points.frustumCulled = false;
    // Before every opaque body (the sky cube is drawn before all), after nothing else.
    this.points.renderOrder = -1;
    this.points.onBeforeRender = (renderer) => {
      material.uniforms.uPixelRatio.value = renderer.getPixelRatio();
    };
  }

  /** The stars of `seed`, a share of them along the band whose normal is `galaxyNormal`. */
  setSeed(seed: number, galaxyNormal: Vector3): void {
    const prng = new Prng((seed ^ 0x51a7f1e1) >>> 0);
    const n = [galaxyNormal.x, galaxyNormal.y, galaxyNormal.z];
    const positions = new Float32Array(3 * STAR_COUNT);
    const colors = new Float32Array(3 * STAR_COUNT);
    const sizes = new Float32Array(STAR_COUNT);
    let bright = 0;
    for (let i = 0; i < STAR_COUNT; i++) {
      let d = prng.unitVector();
      if (prng.next() < 0.45) {
        // Along the band: the direction's projection on the band's plane, tilted by a Gaussian latitude.
        const along = dot(d, n);
        const inPlane = normalize([d[0] - along * n[0], d[1] - along * n[1], d[2] - along * n[2]]);
        const lat = 0.18 * gaussian(prng);
        d = normalize(inPlane.map((v, k) => v * Math.cos(lat) + n[k] * Math.sin(lat)));
      }
      positions.set(d, 3 * i);
      const mag = Math.max(-1.5, FAINTEST_MAG + 2 * Math.log10(Math.max(1e-9, prng.next())));
      if (mag < 1) bright++;
      const flux = 10 ** (-0.4 * mag);
      const intensity = this.brightness * MAG0_INTENSITY * flux ** 0.8;
      const rgb = blackbody(temperature(prng));
      colors.set(rgb.map((c) => c * intensity), 3 * i);
      sizes[i] = mag < 1.5 ? Math.min(MAX_GLARE_PX, CORE_PX + 3 * (1.5 - mag)) : CORE_PX;
    }
    this.brightCount = bright;
    const g = this.points.geometry;
    g.setAttribute('position', new BufferAttribute(positions, 3));
    g.setAttribute('aColor', new BufferAttribute(colors, 3));
    g.setAttribute('aSize', new BufferAttribute(sizes, 1));
  }

  /**
   * Daylight at the eye, 0–1 (src/render/Atmosphere.ts): under a day sky the eye, adapted to it,
   * sees no stars; they fade out with it (to 2 %: the brightest still show in twilight).
   */
  setDaylight(daylight: number): void {
    this.points.material.uniforms.uBrightness.value = 1 - 0.98 * Math.min(1, Math.max(0, daylight));
  }

  /** Frees the points' geometry and material. */
  dispose(): void {
    for (const r of meshResources(this.points)) r.dispose();
  }
}

function dot(a: readonly number[], b: readonly number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function normalize(v: readonly number[]): [number, number, number] {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}

function gaussian(prng: Prng): number {
  return Math.sqrt(-2 * Math.log(Math.max(1e-12, prng.next()))) * Math.cos(2 * Math.PI * prng.next());
}

/** A star's temperature, K: most of them cool (K, G, F), some hot (A, B), a few red (M). */
function temperature(prng: Prng): number {
  const u = prng.next();
  if (u < 0.15) return prng.range(3000, 4000);
  if (u < 0.75) return prng.range(4000, 7000);
  if (u < 0.95) return prng.range(7000, 12000);
  return prng.range(12000, 25000);
}

/**
 * A black body's colour at `kelvin` in linear RGB, its largest component 1, paled 30 % toward white
 * (the eye sees stars as pale tints). Tanner Helland's fit of the Planckian locus (sRGB), linearised.
 */
export function blackbody(kelvin: number): [number, number, number] {
  const t = kelvin / 100;
  const r = t <= 66 ? 255 : 329.698727446 * (t - 60) ** -0.1332047592;
  const g = t <= 66 ? 99.4708025861 * Math.log(t) - 161.1195681661 : 288.1221695283 * (t - 60) ** -0.0755148492;
  const b = t >= 66 ? 255 : t <= 19 ? 0 : 138.5177312231 * Math.log(t - 10) - 305.0447927307;
  const lin = [r, g, b].map((c) => {
    const s = Math.min(1, Math.max(0, c / 255));
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  const max = Math.max(...lin);
  return lin.map((c) => 0.7 * (c / max) + 0.3) as [number, number, number];
}
