/**
 * A planet's field with the user's brushes (issue 19): the JS field the app asks for altitudes and
 * collisions, and the brushes with the chunks they reach (src/lod/planetEdits.ts). PlanetView hands
 * a change on to the LOD worker and the streaming model, which re-mesh what it reaches.
 */
import type { Vector3 } from 'three';
import { compileToJs, type Brush, type FieldFn, type FieldRecipe } from '../field/index';
import { changedBrushes, PlanetEdits, type CubeSphereSpace } from '../lod/index';

export class PlanetBrushes {
  private fieldFn: FieldFn;
  /** The brushes and what they reach. */
  edits: PlanetEdits;

  constructor(private readonly recipe: FieldRecipe, private readonly space: CubeSphereSpace) {
    this.fieldFn = compileToJs(recipe);
    this.edits = new PlanetEdits(space);
  }

  /** The field at a point in the planet's frame (metres): about the altitude above the surface. */
  field(x: number, y: number, z: number): number {
    return this.fieldFn(x, y, z);
  }

  /** The field at a world point, the planet's centre at `centerWorld`. */
  altitude(pointWorld: Vector3, centerWorld: Vector3): number {
    return this.fieldFn(pointWorld.x - centerWorld.x, pointWorld.y - centerWorld.y, pointWorld.z - centerWorld.z);
  }

  /**
   * The user's brushes after the recipe's: the brushes that changed (added or taken back; empty: none),
   * or why they cannot be (a brush reaching past the chunk space).
   */
  set(brushes: readonly Brush[]): { problem: string } | { changed: Brush[] } {
    const problem = this.edits.problem(brushes);
    if (problem) return { problem };
    const changed = changedBrushes(this.edits.brushes, brushes);
    if (changed.length === 0) return { changed };
    this.fieldFn = compileToJs({ ...this.recipe, brushes: [...this.recipe.brushes, ...brushes] });
    this.edits = new PlanetEdits(this.space, brushes);
    return { changed };
  }
}
