import { Color, MeshStandardMaterial } from 'three';
import { ROCK_PALETTES } from './BodyMaterial';
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
