/**
 * A user's brush edits (issue 19): which body each dig or build went to, in order, with undo and
 * redo, and their text form for the URL (`edits=`). Pure: the app's brush tool keeps one history
 * for the scene shown, bodies read their own brushes from it, and Node tests reach all of it.
 *
 * Text form: entries joined by `;`, each `<target><op><x>,<y>,<z>,<r>` — target `a<index>` (an
 * asteroid of the scene) or `p` (its planet), op `d` (dig: carve) or `b` (build: add), then the
 * centre in the body's own frame and the radius, metres. Brushes are rounded to 1 cm when made
 * ({@link makeBrush}), so the text holds them exactly and a reload reproduces the same meshes.
 */
import { gateEdit, parseEdits } from './editGate';
import { parseRecipe } from './parseRecipe';
import type { Brush, FieldRecipe } from './recipe';

export type BrushOp = 'dig' | 'build';

/**
 * Which body of the scene a brush edit changes: its planet, or asteroid `index` — the asteroid's
 * place in the scene's list, not its seed (body ids are `asteroid:<seed>`: a different thing).
 * Compare with {@link sameEditTarget}; name with {@link editTargetName}.
 */
export type EditTarget = { readonly kind: 'planet' } | { readonly kind: 'asteroid'; readonly index: number };

/** The scene's planet as an edit target. */
export const PLANET_EDIT: EditTarget = Object.freeze({ kind: 'planet' });

/** Asteroid `index` of the scene's list as an edit target. */
export function asteroidEdit(index: number): EditTarget {
  return { kind: 'asteroid', index };
}

export function sameEditTarget(a: EditTarget, b: EditTarget): boolean {
  return a.kind === 'planet' ? b.kind === 'planet' : b.kind === 'asteroid' && a.index === b.index;
}

/**
 * The target's name in messages, keys, file names and the debug hooks: `planet` or
 * `asteroid:<index>`.
 */
export function editTargetName(t: EditTarget): string {
  return t.kind === 'planet' ? 'planet' : `asteroid:${t.index}`;
}

export interface BrushEdit {
  target: EditTarget;
  brush: Brush;
}

/** A brush's smooth blend, as a fraction of its radius: soft crater rims, no terraces. */
export const BRUSH_BLEND = 0.25;
/** Brush radii the tool accepts, metres. */
export const MIN_BRUSH_RADIUS_M = 0.5;
export const MAX_BRUSH_RADIUS_M = 5000;
/** Edits one URL may carry (the recipe format's 256 brushes per body bound them anyway). */
export const MAX_EDITS = 256;

const round = (x: number): number => Math.round(x * 100) / 100;

/** The brush of a dig or build at `center` (body frame, metres), rounded as the URL keeps it. */
export function makeBrush(op: BrushOp, center: readonly number[], radiusM: number): Brush {
  const radius = round(Math.min(MAX_BRUSH_RADIUS_M, Math.max(MIN_BRUSH_RADIUS_M, radiusM)));
  return {
    op: op === 'dig' ? 'carve' : 'add',
    center: [round(center[0]), round(center[1]), round(center[2])],
    radius,
    blend: round(radius * BRUSH_BLEND),
  };
}

/** Undo and redo over one scene's edits, oldest first. */
export class EditHistory {
  private readonly done: BrushEdit[];
  private undone: BrushEdit[] = [];

  constructor(initial: readonly BrushEdit[] = []) {
    this.done = initial.slice();
  }

  get edits(): readonly BrushEdit[] {
    return this.done;
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** A new edit; the redo list is dropped (as in every editor). */
  push(edit: BrushEdit): void {
    if (this.done.length >= MAX_EDITS) throw new Error(`at most ${MAX_EDITS} edits a scene`);
    this.done.push(edit);
    this.undone = [];
  }

  /** Takes back the newest edit; returns it (null: nothing to undo). */
  undo(): BrushEdit | null {
    const e = this.done.pop() ?? null;
    if (e) this.undone.push(e);
    return e;
  }

  /** Puts back the newest undone edit; returns it (null: nothing to redo). */
  redo(): BrushEdit | null {
    const e = this.undone.pop() ?? null;
    if (e) this.done.push(e);
    return e;
  }

  /** Replaces the edits (a URL's, or an import); the redo list is dropped. */
  replace(edits: readonly BrushEdit[]): void {
    this.done.splice(0, this.done.length, ...edits);
    this.undone = [];
  }

  /** The brushes of one body, in the order they were made. */
  brushesFor(target: EditTarget): Brush[] {
    return this.done.filter((e) => sameEditTarget(e.target, target)).map((e) => e.brush);
  }
}

function formatNumber(x: number): string {
  const s = x.toFixed(2);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** The edits as the URL's `edits` value ('' for none). */
export function encodeEdits(edits: readonly BrushEdit[]): string {
  return edits
    .map(({ target, brush: b }) => {
      const t = target.kind === 'planet' ? 'p' : `a${target.index}`;
      return `${t}${b.op === 'carve' ? 'd' : 'b'}${[...b.center, b.radius].map(formatNumber).join(',')}`;
    })
    .join(';');
}

/**
 * Reads the URL's `edits` value strictly: throws an Error naming the first bad entry ({@link parseEdits},
 * editGate.ts, keeps the good ones instead; the app reads URLs with that).
 */
export function decodeEdits(text: string): BrushEdit[] {
  const parsed = parseEdits(text);
  if (parsed.problems.length > 0) throw new Error(parsed.problems[0]);
  return parsed.edits;
}

/**
 * The edits after importing `imported`, a recipe exported from one of `targets` (its generated root,
 * then that body's brushes): that body's edits become the imported brushes beyond its own, on the
 * tool's grid and blend ({@link makeBrush}, so the URL holds them exactly); other bodies' edits stay.
 * Throws when no body of the scene has that root.
 */
export function editsFromRecipe(
  current: readonly BrushEdit[], imported: FieldRecipe, baseOf: (t: EditTarget) => FieldRecipe, targets: readonly EditTarget[],
): BrushEdit[] {
  const root = JSON.stringify(parseRecipe(imported).root);
  const target = targets.find((t) => JSON.stringify(parseRecipe(baseOf(t)).root) === root);
  if (!target) throw new Error('the recipe is not one of this scene\'s bodies (its root differs from every body\'s)');
  const base = baseOf(target).brushes;
  const own = imported.brushes.slice(0, base.length);
  if (JSON.stringify(own) !== JSON.stringify(base)) throw new Error(`the recipe's first ${base.length} brushes are not ${editTargetName(target)}'s own`);
  const added = imported.brushes.slice(base.length).map((b, i) => {
    const gate = gateEdit({ target, op: b.op === 'add' ? 'build' : 'dig', center: b.center, radiusM: b.radius });
    if (gate.reason !== null) throw new Error(`brush ${base.length + i + 1}: ${gate.reason}`);
    return gate.edit;
  });
  return [...current.filter((e) => !sameEditTarget(e.target, target)), ...added];
}

/** A brush as text: equal texts, equal brushes (what `brushesHash` hashes, and what edit diffs compare). */
export function brushText(b: Brush): string {
  return `${b.op}${b.center.join(',')},${b.radius},${b.blend}`;
}

/** A short content hash of a brush list (body ids and chunk revisions of edited bodies). */
export function brushesHash(brushes: readonly Brush[]): string {
  return textHash(brushes.map(brushText).join(';'));
}

/**
 * A short content hash of a text: two 32-bit FNV-1a lanes with different offsets, base 36 (at most
 * 14 characters). Brush revisions name chunk meshes in a cache with it; imported recipes their keys.
 */
export function textHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01234567;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h2 >>> 15);
  }
  return (h1 >>> 0).toString(36) + (h2 >>> 0).toString(36);
}
