/**
 * The brush tool (issue 19): with brush mode on (key B, or the GUI's Brush folder), a click digs a
 * sphere out of the body under the pointer and a shift-click builds one onto it; the radius comes
 * from the GUI or the wheel with R held. Ctrl+Z undoes, Ctrl+Shift+Z (or Ctrl+Y) redoes. Edits live
 * in the scene's SceneBodies (which re-meshes the bodies they touch) and in the URL's `edits`, so a
 * reload or a shared link shows them; a body's edited recipe can be exported as JSON and imported
 * back. Picking is the Picker's (the same BVH rays).
 */
import type { Controller } from 'lil-gui';
import { Vector3 } from 'three';
import {
  clampRadius,
  editsFromRecipe,
  encodeEdits,
  gateEdit,
  parseEdits,
  parseRecipe,
  parseRecipeText,
  MIN_BRUSH_RADIUS_M,
  type BrushEdit,
  type BrushOp,
  asteroidEdit,
  editTargetName,
  PLANET_EDIT,
  type EditTarget,
} from '../field/index';
import type { App } from './App';
import type { Picker, PickInfo } from './Picker';
import type { SceneBodies } from './SceneBodies';
import { download } from './screenshot';
import { editsOutOfLink, MAX_QUERY_CHARS } from './urlState';

/** Pointer travel under which a press and release is a click, not an orbit drag, pixels. */
const CLICK_PX = 5;
/** Radius change per wheel notch with R held. */
const WHEEL_FACTOR = 1.15;

export interface BrushResult {
  /** The edited body's name ({@link editTargetName}: `planet` or `asteroid:<index>`). */
  target: string;
  /** Time from the edit to its mesh drawn, ms. */
  drawnMs: number;
}

export class BrushTool {
  /** Brush mode: clicks dig and build instead of focusing. */
  enabled = false;
  radiusM = 20;
  private down: { x: number; y: number } | null = null;
  private radiusHeld = false;
  private readonly gui: { enabled: Controller; radius: Controller };
  private readonly fileInput: HTMLInputElement;

  constructor(private readonly app: App, private readonly picker: Picker) {
    const canvas = app.renderer.domElement;
    canvas.addEventListener('pointerdown', this.onDown);
    canvas.addEventListener('pointerup', this.onUp);
    window.addEventListener('keydown', this.onKeyDown);
    window.addEventListener('keyup', this.onKeyUp);
    // Capture on the window: the wheel with R held changes the radius and never reaches the orbit zoom.
    window.addEventListener('wheel', this.onWheel, { capture: true, passive: false });
    window.addEventListener('popstate', this.onPopState);
    window.addEventListener('blur', this.onBlur);
    const folder = app.controlsGui.gui.addFolder('Brush');
    this.gui = {
      enabled: folder.add(this, 'enabled').name('brush mode (B)').onChange(() => this.syncMode()),
      radius: folder.add(this, 'radiusM', MIN_BRUSH_RADIUS_M, 500, 0.5).name('radius m (R + wheel)'),
    };
    folder.add({ undo: () => void this.undo() }, 'undo').name('undo (Ctrl+Z)');
    folder.add({ redo: () => void this.redo() }, 'redo').name('redo (Ctrl+Shift+Z)');
    folder.add({ save: () => this.exportRecipe() }, 'save').name('export recipe JSON');
    folder.add({ load: () => this.fileInput.click() }, 'load').name('import recipe JSON');
    folder.close(); // B and the overlay's keys line say how; open, the folder covers small windows' middle
    this.fileInput = document.createElement('input');
    this.fileInput.type = 'file';
    this.fileInput.accept = 'application/json,.json';
    this.fileInput.hidden = true;
    this.fileInput.addEventListener('change', this.onFile);
    document.body.appendChild(this.fileInput);
  }

  /**
   * Digs or builds at a world point on the body nearest to it (debug hook and tests): resolves once
   * the edited mesh is drawn, rejects with the reason when the edit was refused.
   */
  brushAt(op: BrushOp, at: readonly number[], radiusM: number): Promise<BrushResult> {
    const bodies = this.need();
    const point = new Vector3(at[0], at[1], at[2]);
    const target = bodies.atPlanet(point) || !bodies.field ? PLANET_EDIT : asteroidEdit(bodies.field.nearest(point).spec.index);
    return this.edit(bodies, target, op, point, radiusM);
  }

  /** Takes back the newest edit; resolves when the bodies draw the result (null: nothing to undo). */
  undo(): Promise<BrushResult | null> {
    return this.step((bodies) => bodies.undoEdit());
  }

  /** Puts back the newest undone edit; resolves when drawn (null: nothing to redo). */
  redo(): Promise<BrushResult | null> {
    return this.step((bodies) => bodies.redoEdit());
  }

  private step(walk: (bodies: SceneBodies) => BrushEdit | null): Promise<BrushResult | null> {
    const bodies = this.need();
    const t0 = performance.now();
    const e = walk(bodies);
    if (!e) return Promise.resolve(null);
    this.writeUrl(bodies);
    return this.whenDrawn(bodies, e.target, t0);
  }

  /** The scene's edits in their URL form. */
  editsText(): string {
    return this.app.bodies ? encodeEdits(this.app.bodies.edits.edits) : '';
  }

  dispose(): void {
    const canvas = this.app.renderer.domElement;
    canvas.removeEventListener('pointerdown', this.onDown);
    canvas.removeEventListener('pointerup', this.onUp);
    window.removeEventListener('keydown', this.onKeyDown);
    window.removeEventListener('keyup', this.onKeyUp);
    window.removeEventListener('wheel', this.onWheel, { capture: true });
    window.removeEventListener('popstate', this.onPopState);
    window.removeEventListener('blur', this.onBlur);
    this.fileInput.remove();
  }

  private need(): SceneBodies {
    const bodies = this.app.bodies;
    if (!bodies) throw new Error('no scene to edit (the gallery is shown)');
    return bodies;
  }

  private edit(bodies: SceneBodies, target: EditTarget, op: BrushOp, point: Vector3, radiusM: number): Promise<BrushResult> {
    const t0 = performance.now();
    const local = target.kind === 'planet' ? bodies.planet!.toBodyFrame(point) : bodies.field!.toBodyFrame(target.index, point);
    // The one gate (editGate.ts): NaN, ∞ and out-of-range values are refused with the reason.
    const gate = gateEdit({ target, op, center: local, radiusM });
    let problem: string | null = gate.reason;
    try {
      problem ??= bodies.addEdit(gate.edit!);
    } catch (e) {
      problem = e instanceof Error ? e.message : String(e);
    }
    if (problem) return Promise.reject(new Error(problem));
    this.writeUrl(bodies);
    return this.whenDrawn(bodies, target, t0);
  }

  /** Resolves on the first frame the bodies draw every edit (polled once a frame). */
  private whenDrawn(bodies: SceneBodies, target: EditTarget, t0: number): Promise<BrushResult> {
    return new Promise((resolve, reject) => {
      const poll = (): void => {
        if (this.app.bodies !== bodies) reject(new Error('the scene changed before the edit was drawn'));
        else if (bodies.editsDrawn()) resolve({ target: editTargetName(target), drawnMs: performance.now() - t0 });
        else requestAnimationFrame(poll);
      };
      poll();
    });
  }

  private writeUrl(bodies: SceneBodies): void {
    this.app.state = { ...this.app.state, edits: encodeEdits(bodies.edits.edits) };
    this.app.url.scheduleWrite();
    // Past a link's safe length the edits stay in the page only (urlState.ts): say so, and how to keep them.
    if (editsOutOfLink(this.app.state)) {
      const n = bodies.edits.edits.length;
      this.app.notices.show('warning', `The ${n} edits no longer fit in a link (${MAX_QUERY_CHARS} characters at most): ` +
        'they are kept in this page, not in its URL. Save them with Brush → export recipe JSON.', 'edits-link');
    } else this.app.notices.dismiss('edits-link');
    this.app.stats.setLine('edits', `edits: ${bodies.edits.edits.length}${bodies.edits.canRedo ? ' (redo available)' : ''}`);
  }

  /** `clampNote`: what a clamp of the radius did (the overlay says so). */
  private syncMode(clampNote: string | null = null): void {
    this.picker.clickFocus = !this.enabled;
    this.gui.enabled.updateDisplay();
    const radius = clampNote ?? `radius ${this.radiusM} m`;
    this.app.stats.setLine('brush', this.enabled ? `brush: on · click digs, shift-click builds · ${radius}` : 'brush: off (B)');
  }

  private report(message: string): void {
    this.app.notices.show('warning', message, 'brush');
  }

  /** Export: the recipe of the body the orbit camera looks at, with its edits, as a JSON download. */
  private exportRecipe(): void {
    const bodies = this.app.bodies;
    if (!bodies) return;
    const target = this.focusTarget(bodies);
    const recipe = bodies.recipeOf(target);
    const name = `sr-seed${this.app.state.seed}-${editTargetName(target).replace(':', '')}-recipe.json`;
    download(new Blob([JSON.stringify(recipe, null, 2)], { type: 'application/json' }), name);
  }

  private focusTarget(bodies: SceneBodies): EditTarget {
    const at = this.app.controls.target;
    return bodies.atPlanet(this.app.camera.position) || !bodies.field ? PLANET_EDIT : asteroidEdit(bodies.field.nearest(at).spec.index);
  }

  /**
   * Import: a recipe exported from one of this scene's bodies — its brushes become that body's edits —
   * or any other recipe (assets/recipes/*.json, another seed's body), opened alone in asteroid mode.
   */
  private readonly onFile = async (): Promise<void> => {
    const file = this.fileInput.files?.[0];
    this.fileInput.value = '';
    const bodies = this.app.bodies;
    if (!file || !bodies) return;
    try {
      const recipe = parseRecipeText(await file.text());
      const root = JSON.stringify(recipe.root);
      if (!bodies.editTargets().some((t) => JSON.stringify(parseRecipe(bodies.recipeOf(t, false)).root) === root)) {
        this.app.modes.openRecipe(recipe);
        this.app.notices.show('info', `Opened ${file.name} as a body to explore (asteroid mode); Back returns to the scene before.`, 'brush');
        return;
      }
      const next = editsFromRecipe(bodies.edits.edits, recipe, (t) => bodies.recipeOf(t, false), bodies.editTargets());
      const problem = bodies.replaceEdits(next);
      if (problem) throw new Error(problem);
      this.writeUrl(bodies);
      // The URL holds brushes on the tool's grid: an import is snapped to it (1 cm, blend ¼ of the radius).
      this.app.notices.show('info', `Imported ${file.name}: its brushes are shown on the brush tool's 1 cm grid and blend (¼ of the radius).`, 'brush');
    } catch (e) {
      this.report(`Import of ${file.name} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  private readonly onPopState = (): void => {
    // Back/Forward within one scene: the URL's edits are shown again (App rebuilt the scene otherwise).
    const bodies = this.app.bodies;
    if (!bodies || encodeEdits(bodies.edits.edits) === this.app.state.edits) return;
    const problems = bodies.loadEdits(parseEdits(this.app.state.edits));
    if (problems.length > 0) this.report(`URL edits: ${problems.join('; ')}; showing the others`);
  };

  private readonly onDown = (e: PointerEvent): void => {
    // The primary pointer only: a second finger's press (a pinch) is no click.
    this.down = e.button === 0 && e.isPrimary ? { x: e.offsetX, y: e.offsetY } : null;
  };

  private readonly onBlur = (): void => {
    this.radiusHeld = false; // R released while the window was away
  };

  private readonly onUp = (e: PointerEvent): void => {
    const down = this.down;
    this.down = null;
    if (!this.enabled || !down || Math.hypot(e.offsetX - down.x, e.offsetY - down.y) > CLICK_PX) return;
    const bodies = this.app.bodies;
    const hit = this.picker.pick(e.offsetX, e.offsetY);
    if (!bodies || !hit) return;
    this.edit(bodies, targetOf(hit), e.shiftKey ? 'build' : 'dig', new Vector3(...hit.pointM), this.radiusM).catch((err: unknown) =>
      this.report(`Brush: ${err instanceof Error ? err.message : String(err)}`),
    );
  };

  private readonly onKeyDown = (e: KeyboardEvent): void => {
    if (e.target instanceof HTMLInputElement || !this.app.bodies) return;
    if (e.code === 'KeyR') this.radiusHeld = true;
    if (e.code === 'KeyB' && !e.ctrlKey && !e.metaKey && !e.repeat) {
      this.enabled = !this.enabled;
      this.syncMode();
    }
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.code === 'KeyZ' && !e.shiftKey) void this.undo();
    if (mod && ((e.code === 'KeyZ' && e.shiftKey) || e.code === 'KeyY')) void this.redo();
    if (mod && (e.code === 'KeyZ' || e.code === 'KeyY')) e.preventDefault();
  };

  private readonly onKeyUp = (e: KeyboardEvent): void => {
    if (e.code === 'KeyR') this.radiusHeld = false;
  };

  private readonly onWheel = (e: WheelEvent): void => {
    if (!this.radiusHeld) return;
    e.preventDefault();
    e.stopPropagation();
    const clamped = clampRadius(this.radiusM * (e.deltaY < 0 ? WHEEL_FACTOR : 1 / WHEEL_FACTOR));
    this.radiusM = clamped.radiusM;
    this.gui.radius.updateDisplay();
    this.syncMode(clamped.note);
  };
}

function targetOf(hit: PickInfo): EditTarget {
  return hit.asteroid ? asteroidEdit(hit.asteroid.index) : PLANET_EDIT;
}
