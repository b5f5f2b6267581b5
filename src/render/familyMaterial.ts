import { Color, MeshStandardMaterial } from 'three';
import { ROCK_PALETTES } from './BodyMaterial';
import { GpuResources, type Disposable } from './disposal';
import { withSunCascades } from './sunCascades';

/**
 * The cheap stand-in for a BodyMaterial: a standard material in the family's rock colour
 * (palette base and regolith mixed), for bodies too small on screen to need their own shader.
 * It takes the sun's cascaded shadow like BodyMaterial (one lookup, whatever the cascade count).
 */
export function familyMaterial(family: string): MeshStandardMaterial {
  const p = ROCK_PALETTES[family] ?? ROCK_PALETTES.default;
  return withSunCascades(
    new MeshStandardMaterial({
      color: new Color(...p.base).lerp(new Color(...p.regolith), 0.5),
      roughness: p.roughness,
      metalness: p.metalness,
    }),
  );
}

/**
 * One {@link familyMaterial} per family, made on first use and shared by every body of it (the
 * asteroid field and the gallery); unknown families get the default palette's. `dispose` frees them.
 */
export class FamilyMaterials implements Disposable {
  private readonly byFamily = new Map<string, MeshStandardMaterial>();
  private readonly gpu = new GpuResources();

  get(family: string): MeshStandardMaterial {
    const key = family in ROCK_PALETTES ? family : 'default';
    let m = this.byFamily.get(key);
    if (!m) {
      m = this.gpu.own(familyMaterial(key));
      this.byFamily.set(key, m);
    }
    return m;
  }

  /** Frees every family's material (the next `get` makes a new one). */
  dispose(): void {
    this.gpu.dispose();
    this.byFamily.clear();
  }
}
