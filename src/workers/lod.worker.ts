/**
 * Worker entry for planet LOD selection: a thin message loop around `PlanetLodSelector`
 * (src/lod/planetLodSelector.ts). Selection near the surface of a large planet takes 0.1–0.5 s
 * (docs/lod.md), far too long for the main thread.
 */
import { compileToJs, recipeBounds, type Brush, type FieldRecipe } from '../field/index';
import {
  levelErrorsM,
  brokenMarks, CubeSphereSpace, PlanetEdits, PlanetLodSelector, planetShell,
  type PlanetShell,
} from '../lod/index';
import { serializeError, type LodWorkerRequest, type WorkerResponse } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let selector: PlanetLodSelector | null = null;
let planet: { recipe: FieldRecipe; space: CubeSphereSpace; shell: PlanetShell; lipschitz: number } | null = null;
/** The user's brushes as of the last edit (which marks the next one can break: planetEdits.ts `brokenMarks`). */
let userBrushes: readonly Brush[] = [];

function need(): PlanetLodSelector {
  if (!selector) throw new Error('lod worker: message before init');
  return selector;
}

scope.onmessage = (event: MessageEvent<LodWorkerRequest>) => {
  const msg = event.data;
  try {
    switch (msg.kind) {
      case 'init': {
        const bounds = recipeBounds(msg.params.recipe);
        planet = { recipe: msg.params.recipe, space: new CubeSphereSpace(msg.params.space), shell: planetShell(bounds), lipschitz: bounds.lipschitz };
        userBrushes = [];
        // Each level's error from what its band limit drops (levelErrors.ts), unless the caller set one.
        const levelErrorM = msg.params.select.levelErrorM ?? levelErrorsM(msg.params.recipe, planet.space, bounds.lipschitz);
        selector = new PlanetLodSelector({
          space: msg.params.space, shell: planetShell(bounds), field: compileToJs(msg.params.recipe),
          lipschitz: bounds.lipschitz, select: { ...msg.params.select, levelErrorM },
        });
        scope.postMessage({ id: msg.id, result: { levels: selector.space.levels } } satisfies WorkerResponse);
        return;
      }
      case 'select':
        scope.postMessage({ id: msg.id, result: need().select(msg.params.view, msg.params.errorFactor) } satisfies WorkerResponse);
        return;
      case 'ready':
        need().markReady(msg.params.keys);
        return;
      case 'evicted':
        need().markEvicted(msg.params.keys);
        return;
      case 'homogeneous':
        need().markHomogeneous(msg.params.key, msg.params.state, msg.params.proven);
        return;
      case 'debugHang':
        for (;;) { /* silent until terminated */ }
      case 'edit': {
        const p = planet!;
        const recipe: FieldRecipe = { ...p.recipe, brushes: [...p.recipe.brushes, ...msg.params.brushes] };
        const lipschitz = recipeBounds(recipe).lipschitz;
        const edits = new PlanetEdits(p.space, msg.params.brushes);
        const changes = edits.with(msg.params.changed);
        need().edit(
          compileToJs(recipe), lipschitz, edits.shell(p.shell), (a) => changes.brushesFor(a).length > 0,
          (a) => edits.brushesFor(a).length > 0, brokenMarks(userBrushes, msg.params.brushes),
        );
        userBrushes = msg.params.brushes;
        return;
      }
    }
  } catch (e) {
    scope.postMessage({ id: msg.id, error: serializeError(e) } satisfies WorkerResponse);
  }
};
