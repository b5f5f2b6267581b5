/**
 * The one gate every brush edit passes (issue 45): a click of the brush tool, the `__sr.brush` hook,
 * an entry of the URL's `edits=`, a brush of an imported recipe. NaN, ∞, a centre beyond the far plane
 * and a radius outside what the tool makes are refused with the reason; what passes is made on the
 * tool's 1 cm grid ({@link makeBrush}). The URL is read entry by entry ({@link parseEdits}): the good
 * entries are kept, each bad one is named, none takes the others with it.
 */
import {
  asteroidEdit, editTargetName, makeBrush, MAX_BRUSH_RADIUS_M, MAX_EDITS, MIN_BRUSH_RADIUS_M, PLANET_EDIT,
  type BrushEdit, type BrushOp, type EditTarget,
} from './brushEdits';

/** Centre coordinates within ±1e8 m (the far plane: no body lies further out). */
export const MAX_EDIT_COORD_M = 1e8;

export interface EditRequest {
  target: EditTarget;
  op: BrushOp;
  /** The centre in the body's own frame, metres. */
  center: readonly number[];
  radiusM: number;
}

export type GateResult = { edit: BrushEdit; reason: null } | { edit: null; reason: string };

/** The planet, or an asteroid index of at most four digits (the URL's `a<index>`). */
function knownTarget(t: EditTarget | undefined): boolean {
  if (t?.kind === 'planet') return true;
  return t?.kind === 'asteroid' && Number.isInteger(t.index) && t.index >= 0 && t.index <= 9999;
}

/** The edit `request` asks for, or why it is refused. */
export function gateEdit(request: EditRequest): GateResult {
  const refuse = (reason: string): GateResult => ({ edit: null, reason });
  const { target, op, center, radiusM } = request;
  if (!knownTarget(target)) return refuse(`no body "${target?.kind === 'asteroid' ? editTargetName(target) : String(target?.kind ?? target)}" to edit`);
  if (op !== 'dig' && op !== 'build') return refuse(`"${String(op)}" is neither dig nor build`);
  if (!Array.isArray(center) || center.length !== 3) return refuse('the centre needs three coordinates');
  for (const c of center) {
    if (typeof c !== 'number' || !Number.isFinite(c)) return refuse(`centre coordinate ${String(c)} is not a finite number`);
    if (Math.abs(c) > MAX_EDIT_COORD_M) return refuse(`centre coordinate ${c} m is beyond ±${MAX_EDIT_COORD_M} m`);
  }
  if (typeof radiusM !== 'number' || !Number.isFinite(radiusM)) return refuse(`radius ${String(radiusM)} is not a finite number`);
  if (radiusM < MIN_BRUSH_RADIUS_M || radiusM > MAX_BRUSH_RADIUS_M) {
    return refuse(`radius ${radiusM} m is outside ${MIN_BRUSH_RADIUS_M}…${MAX_BRUSH_RADIUS_M} m`);
  }
  return { edit: { target, brush: makeBrush(op, center, radiusM) }, reason: null };
}

/** A radius brought into the tool's range, and what the clamp did (null: nothing). */
export function clampRadius(radiusM: number): { radiusM: number; note: string | null } {
  const r = Math.round(Math.min(MAX_BRUSH_RADIUS_M, Math.max(MIN_BRUSH_RADIUS_M, radiusM)) * 100) / 100;
  if (r === radiusM || Number.isNaN(radiusM)) return { radiusM: Number.isNaN(radiusM) ? MIN_BRUSH_RADIUS_M : r, note: null };
  const limit = r === MAX_BRUSH_RADIUS_M ? 'largest' : r === MIN_BRUSH_RADIUS_M ? 'smallest' : null;
  return { radiusM: r, note: limit ? `radius held at ${r} m, the ${limit} the brush makes` : null };
}

const NUMBER = '(-?\\d+(?:\\.\\d+)?)';
const ENTRY_RE = new RegExp(`^(p|a(\\d{1,4}))([db])${NUMBER},${NUMBER},${NUMBER},${NUMBER}$`);

export interface ParsedEdits {
  /** The good entries, in order. */
  edits: BrushEdit[];
  /** Each bad entry named: its place, its text, why. */
  problems: string[];
  /** The text of each good entry, as the URL had it (a scene's own check names them by it). */
  texts: string[];
}

/** Names entry `i` (0-based) of the URL's `edits`. */
export function entryName(i: number, text: string): string {
  return `edit ${i + 1} ("${text.length > 40 ? `${text.slice(0, 40)}…` : text}")`;
}

/**
 * Reads the URL's `edits` value entry by entry: `<a<index>|p><d|b><x>,<y>,<z>,<radius>`, `;`-joined.
 * Every entry that passes the gate is kept; every other is named; entries past {@link MAX_EDITS} are
 * named as one problem.
 */
export function parseEdits(text: string): ParsedEdits {
  const out: ParsedEdits = { edits: [], problems: [], texts: [] };
  if (text.trim() === '') return out;
  const entries = text.split(';');
  entries.slice(0, MAX_EDITS).forEach((raw, i) => {
    const entry = raw.trim();
    const m = ENTRY_RE.exec(entry);
    if (!m) {
      out.problems.push(`${entryName(i, entry)} is not <a<index>|p><d|b><x>,<y>,<z>,<radius>`);
      return;
    }
    const target: EditTarget = m[1] === 'p' ? PLANET_EDIT : asteroidEdit(Number(m[2]));
    const gate = gateEdit({ target, op: m[3] === 'd' ? 'dig' : 'build', center: [m[4], m[5], m[6]].map(Number), radiusM: Number(m[7]) });
    if (gate.reason !== null) {
      out.problems.push(`${entryName(i, entry)}: ${gate.reason}`);
      return;
    }
    out.edits.push(gate.edit);
    out.texts.push(entry);
  });
  if (entries.length > MAX_EDITS) out.problems.push(`${entries.length - MAX_EDITS} edits past the ${MAX_EDITS}th (at most ${MAX_EDITS} a scene)`);
  return out;
}
