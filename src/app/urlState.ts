/**
 * URL state: what the query string says about the view, parsed defensively.
 *
 * `?seed=<uint32>&mode=explore|asteroid|planet|gallery|screenshot&cam=px,py,pz,tx,ty,tz&t=<s>`
 * plus `sampling`, `workers`, `quality`, `ui`, the user's brush `edits` (src/field/brushEdits.ts), planet
 * mode's `class`, asteroid mode's imported `recipe` (a key, importedRecipes.ts) and the gallery's
 * `kind`, `start` / `count`; `view=<code>` is the compact
 * form of `cam` + `t` that screenshot file names carry.
 *
 * Every bad value produces a {@link UrlProblem} naming the parameter and the default used
 * instead; parsing never throws. Unknown parameters are kept when the state is written
 * back, so later features (and users' own tags) survive a round trip.
 */
import { encodeEdits, parseEdits } from '../field/index';
import { PLANET_CLASSES, parsePlanetClass, type PlanetClass } from '../scene/index';

/**
 * `explore`: the seed's asteroid field; `asteroid`: one asteroid (the gallery's seed);
 * `planet`: the seed's planet as cube-sphere chunk LOD, orbit to surface; `gallery`: a grid
 * of asteroids; `screenshot`: explore with the UI hidden and time frozen.
 */
export const MODES = ['explore', 'asteroid', 'planet', 'gallery', 'screenshot'] as const;
export type Mode = (typeof MODES)[number];

/** What the gallery shows (`kind`): asteroids (the default) or planets. */
export const GALLERY_KINDS = ['asteroids', 'planets'] as const;
export type GalleryKind = (typeof GALLERY_KINDS)[number];

export const MAX_SEED = 0xffffffff;
export const MAX_GALLERY_COUNT = 60;

export interface CameraState {
  /** Camera position, world metres. */
  position: [number, number, number];
  /** Point the camera looks at (orbit center), world metres. */
  target: [number, number, number];
}

export const SAMPLING_CHOICES = ['auto', 'measure', 'gpu-worker', 'gpu-main', 'js-worker'] as const;
export type SamplingChoiceParam = (typeof SAMPLING_CHOICES)[number];

export const QUALITIES = ['auto', 'low', 'high'] as const;
export type Quality = (typeof QUALITIES)[number];

export interface AppState {
  seed: number;
  mode: Mode;
  /** Where field sampling runs: `auto` lets the start-up probe decide (`measure`: even on a software GPU). */
  sampling: SamplingChoiceParam;
  /** null: the mode's default view. */
  camera: CameraState | null;
  /** Scene time in seconds, frozen (spins stop there); null: time runs. */
  time: number | null;
  /**
   * `high`: near bodies get their own material with per-pixel field normals and occlusion;
   * `low`: shared per-family materials; `auto`: low on a software GPU, else high.
   */
  quality: Quality;
  /** false hides every piece of UI (screenshot mode implies it). */
  ui: boolean;
  /**
   * Planet mode: the class to draw the seed's planet as (`class=`, src/scene/planetClasses.ts);
   * null: the seed's own. Ignored (and not written back) in the other modes.
   */
  planetClass: PlanetClass | null;
  /** Gallery: what the cells show (`kind=`). */
  galleryKind: GalleryKind;
  /** Gallery: first seed and number of cells. */
  start: number;
  count: number;
  /** The user's digs and builds, in their URL form (encodeEdits; '' for none). */
  edits: string;
  /**
   * Asteroid mode: an imported recipe shown instead of the seed's asteroid, by its key in this
   * browser's store (importedRecipes.ts; '' for none). The recipe itself is too long for a link.
   */
  recipe: string;
  /**
   * Body workers (`workers=`, 1 … the browser's core count): to see the app as a smaller machine
   * would (a 4-core laptop: `workers=3`); null: the pool's default (cores − 1).
   */
  workers: number | null;
  /**
   * Planet: seconds a view may take to build at the workers' pace before the selection coarsens
   * (`lodTime=`, 0 … 600; 0: never, full detail however long it takes; src/lod/timeFactor.ts);
   * null: the default (DEFAULT_TIME_BUDGET_S).
   */
  lodTimeS: number | null;
}

export interface UrlProblem {
  param: string;
  value: string;
  message: string;
}

export const DEFAULT_STATE: Readonly<AppState> = Object.freeze({
  seed: 1,
  mode: 'explore',
  sampling: 'auto',
  camera: null,
  time: null,
  quality: 'auto',
  ui: true,
  planetClass: null,
  galleryKind: 'asteroids',
  start: 1,
  count: 12,
  edits: '',
  recipe: '',
  workers: null,
  lodTimeS: null,
});

/** The longest `lodTime=` (s): a view that takes ten minutes is no budget. */
export const MAX_LOD_TIME_S = 600;

const SEED_RE = /^\d{1,10}$/;
/** An imported recipe's key (importedRecipes.ts): a content hash. */
export const RECIPE_KEY_RE = /^[0-9a-z]{1,24}$/;

export function parseSeed(value: string): number | null {
  const text = value.trim();
  if (!SEED_RE.test(text)) return null;
  const n = Number(text);
  return n <= MAX_SEED ? n : null;
}

/**
 * Largest camera coordinate, metres: the camera's far plane. Every body of every scene lies well
 * inside it (the farthest, an explore planet 4 radii of at most 6000 km out, at 2.4e7 m); a
 * finite but larger number (1e308) used to reach the renderer and give NaN altitudes and a white
 * frame.
 */
export const MAX_CAMERA_COORD_M = 1e8;
/** Closest the camera may be to the point it looks at, metres: the view needs a direction. */
export const MIN_VIEW_DISTANCE_M = 0.01;

export const CAMERA_EXPECTED = `six numbers px,py,pz,tx,ty,tz within ±${MAX_CAMERA_COORD_M} m, position and target at least ${MIN_VIEW_DISTANCE_M} m apart`;

/** `px,py,pz,tx,ty,tz` → the camera, or null when it is not six finite numbers in range with a view direction. */
export function parseCamera(value: string): CameraState | null {
  const parts = value.split(',');
  if (parts.length !== 6) return null;
  const nums = parts.map((p) => (p.trim() === '' ? NaN : Number(p)));
  if (!nums.every((x) => Number.isFinite(x) && Math.abs(x) <= MAX_CAMERA_COORD_M)) return null;
  const [px, py, pz, tx, ty, tz] = nums;
  if (!(Math.hypot(px - tx, py - ty, pz - tz) >= MIN_VIEW_DISTANCE_M)) return null; // no view direction
  return { position: [px, py, pz], target: [tx, ty, tz] };
}

function parseTime(value: string): number | null {
  if (!/^\d+(\.\d+)?$/.test(value.trim())) return null;
  const t = Number(value);
  return Number.isFinite(t) && t <= 1e7 ? t : null;
}

/**
 * View code: camera position, target and time as seven float32 numbers, base64url — short
 * enough for a file name, exact enough (float32) to reproduce the image.
 */
export function encodeView(camera: CameraState, time: number): string {
  const f = new Float32Array([...camera.position, ...camera.target, time]);
  let bin = '';
  for (const b of new Uint8Array(f.buffer)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeView(code: string): { camera: CameraState; time: number } | null {
  if (!/^[A-Za-z0-9_-]{38}$/.test(code)) return null;
  const bin = atob(code.replace(/-/g, '+').replace(/_/g, '/') + '==');
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const f = new Float32Array(bytes.buffer, 0, 7);
  if (!f.every(Number.isFinite) || f[6] < 0) return null;
  const camera = parseCamera(Array.from(f.subarray(0, 6)).join(','));
  return camera ? { camera, time: f[6] } : null;
}

/** The browser's core count (the most body workers `workers=` may ask for); 64 without a navigator. */
function coreCount(): number {
  return typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 64;
}

/** Reads the app state from a query string (`location.search`). Never throws. `cores` bounds `workers=`. */
export function parseAppState(search: string, cores = coreCount()): { state: AppState; problems: UrlProblem[] } {
  const params = new URLSearchParams(search);
  const problems: UrlProblem[] = [];
  const state: AppState = { ...DEFAULT_STATE };
  const bad = (param: string, value: string, expected: string, fallback: string): void => {
    problems.push({ param, value, message: `${param} "${clip(value)}" is not ${expected}; using ${fallback}` });
  };
  /** `param`'s value when it is one of `choices`; null when it is absent or not one of them (a problem). */
  const choice = <T extends string>(param: string, choices: readonly T[], fallback: string): T | null => {
    const value = params.get(param);
    if (value === null) return null;
    if ((choices as readonly string[]).includes(value)) return value as T;
    bad(param, value, `one of ${choices.join(', ')}`, fallback);
    return null;
  };

  const seed = params.get('seed');
  if (seed !== null) {
    const parsed = parseSeed(seed);
    if (parsed === null) bad('seed', seed, `a whole number from 0 to ${MAX_SEED}`, `seed ${DEFAULT_STATE.seed}`);
    else state.seed = parsed;
  }

  const mode = choice('mode', MODES, DEFAULT_STATE.mode);
  if (mode !== null) state.mode = mode;

  const sampling = choice('sampling', SAMPLING_CHOICES, 'auto');
  if (sampling !== null) state.sampling = sampling;

  const cam = params.get('cam');
  if (cam !== null) {
    const parsed = parseCamera(cam);
    if (parsed === null) bad('cam', cam, CAMERA_EXPECTED, 'the default view');
    else state.camera = parsed;
  }

  const t = params.get('t');
  if (t !== null) {
    const parsed = parseTime(t);
    if (parsed === null) bad('t', t, 'a time in seconds (0 … 1e7)', 'running time');
    else state.time = parsed;
  }

  const view = params.get('view');
  if (view !== null) {
    const parsed = decodeView(view);
    if (parsed === null) bad('view', view, 'a view code from a screenshot file name', 'cam and t');
    else {
      state.camera = parsed.camera;
      state.time = parsed.time;
    }
  }

  const workers = params.get('workers');
  if (workers !== null) {
    const n = /^\d{1,4}$/.test(workers.trim()) ? Number(workers.trim()) : NaN;
    if (n >= 1 && n <= cores) state.workers = n;
    else bad('workers', workers, `a whole number from 1 to ${cores} (this browser's cores)`, 'the default');
  }

  const lodTime = params.get('lodTime');
  if (lodTime !== null) {
    const n = /^\d{1,3}(\.\d{1,3})?$/.test(lodTime.trim()) ? Number(lodTime.trim()) : NaN;
    if (n >= 0 && n <= MAX_LOD_TIME_S) state.lodTimeS = n;
    else bad('lodTime', lodTime, `seconds from 0 (never coarsen) to ${MAX_LOD_TIME_S}`, 'the default');
  }

  const quality = choice('quality', QUALITIES, 'auto');
  if (quality !== null) state.quality = quality;

  const ui = params.get('ui');
  if (ui !== null) {
    if (ui === '0' || ui === '1') state.ui = ui === '1';
    else bad('ui', ui, '0 or 1', 'shown');
  }
  if (state.mode === 'screenshot') {
    state.ui = false;
    state.time ??= 0;
  }

  const start = params.get('start');
  if (start !== null) {
    const parsed = parseSeed(start);
    if (parsed === null) bad('start', start, `a whole number from 0 to ${MAX_SEED}`, String(DEFAULT_STATE.start));
    else state.start = parsed;
  }

  const edits = params.get('edits');
  if (edits !== null) {
    // Entry by entry (editGate.ts): the good ones are shown, each bad one named. The URL's text is
    // kept as it was until the user changes the edits on purpose, so nothing in it is lost by a drag.
    const parsed = parseEdits(edits);
    state.edits = parsed.problems.length > 0 ? edits : encodeEdits(parsed.edits);
    if (parsed.problems.length > 0) {
      const kept = `showing the ${parsed.edits.length} good one${parsed.edits.length === 1 ? '' : 's'}`;
      const named = parsed.problems.slice(0, 3).join('; ') + (parsed.problems.length > 3 ? `; and ${parsed.problems.length - 3} more` : '');
      problems.push({ param: 'edits', value: edits, message: `${named}; ${kept} (the link keeps its text until you edit)` });
    }
  }

  const recipe = params.get('recipe');
  if (recipe !== null) {
    if (RECIPE_KEY_RE.test(recipe)) state.recipe = recipe;
    else bad('recipe', recipe, 'the key of a recipe imported in this browser (letters and digits)', "the seed's asteroid");
  }

  const cls = params.get('class');
  if (cls !== null) {
    const parsed = parsePlanetClass(cls);
    if (parsed === null) bad('class', cls, `one of ${PLANET_CLASSES.join(', ')}`, "the seed's own class");
    else state.planetClass = parsed;
  }

  const kind = choice('kind', GALLERY_KINDS, DEFAULT_STATE.galleryKind);
  if (kind !== null) state.galleryKind = kind;

  const count = params.get('count');
  if (count !== null) {
    const n = /^\d{1,3}$/.test(count) ? Number(count) : NaN;
    if (!(n >= 1 && n <= MAX_GALLERY_COUNT)) bad('count', count, `a whole number from 1 to ${MAX_GALLERY_COUNT}`, String(DEFAULT_STATE.count));
    else state.count = n;
  }
  return { state, problems };
}

/** Shortest decimal that reads back within 1e-4 m: keeps URLs short and views reproducible. */
export function formatCoord(x: number): string {
  const s = x.toFixed(4);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/**
 * Writes the state into a query string, keeping unrelated parameters of `base`. Seed and
 * mode are always written (a shared URL never depends on later defaults); the rest only
 * when they differ from the default.
 */
export function formatAppState(state: AppState, base = ''): string {
  const params = new URLSearchParams(base);
  params.delete('view'); // cam + t say the same, readably
  params.set('seed', String(state.seed));
  params.set('mode', state.mode);
  const optional: [string, string | null][] = [
    ['sampling', state.sampling !== 'auto' ? state.sampling : null],
    ['cam', state.camera ? [...state.camera.position, ...state.camera.target].map(formatCoord).join(',') : null],
    ['t', state.time !== null && !(state.mode === 'screenshot' && state.time === 0) ? formatCoord(state.time) : null],
    ['quality', state.quality !== 'auto' ? state.quality : null],
    ['workers', state.workers !== null ? String(state.workers) : null],
    ['lodTime', state.lodTimeS !== null ? String(state.lodTimeS) : null],
    ['ui', !state.ui && state.mode !== 'screenshot' ? '0' : null],
    ['class', state.mode === 'planet' && state.planetClass !== null ? state.planetClass : null],
    ['kind', state.mode === 'gallery' && state.galleryKind !== DEFAULT_STATE.galleryKind ? state.galleryKind : null],
    ['start', state.mode === 'gallery' && state.start !== DEFAULT_STATE.start ? String(state.start) : null],
    ['count', state.mode === 'gallery' && state.count !== DEFAULT_STATE.count ? String(state.count) : null],
    ['recipe', state.mode === 'asteroid' && state.recipe !== '' ? state.recipe : null],
    ['edits', state.mode !== 'gallery' && state.edits !== '' ? state.edits : null],
  ];
  for (const [key, value] of optional) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const query = (): string => `?${params.toString().replace(/%2C/g, ',').replace(/%3B/g, ';')}`;
  // Never a link the server refuses (HTTP 431 past its header limit): edits that make the query too
  // long stay in the page only (the brush tool says so and how to save them: export JSON).
  if (query().length > MAX_QUERY_CHARS) params.delete('edits');
  return query();
}

/**
 * The longest query the app writes, characters: Node's HTTP servers (Vite's dev and preview) refuse
 * request headers past 16 KiB with 431, and the request line is one of them; half of that is safe
 * with cookies and the rest beside it.
 */
export const MAX_QUERY_CHARS = 8000;

/** The edits `state` holds are too long for its link (formatAppState leaves them out). */
export function editsOutOfLink(state: AppState): boolean {
  return state.mode !== 'gallery' && state.edits !== '' && !formatAppState(state).includes('edits=');
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
