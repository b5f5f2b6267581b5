/**
 * URL state: what the query string says about the view, parsed defensively.
 *
 * `?seed=<uint32>&mode=explore|gallery|screenshot&cam=px,py,pz,tx,ty,tz`
 *
 * Every bad value produces a {@link UrlProblem} naming the parameter and the default used
 * instead; parsing never throws. Unknown parameters are kept when the state is written
 * back, so later features (and users' own tags) survive a round trip.
 */

export const MODES = ['explore', 'gallery', 'screenshot'] as const;
export type Mode = (typeof MODES)[number];

export const MAX_SEED = 0xffffffff;

export interface CameraState {
  /** Camera position, world metres. */
  position: [number, number, number];
  /** Point the camera looks at (orbit centre), world metres. */
  target: [number, number, number];
}

export const SAMPLING_CHOICES = ['auto', 'gpu-worker', 'gpu-main', 'js-worker'] as const;
export type SamplingChoiceParam = (typeof SAMPLING_CHOICES)[number];

export interface AppState {
  seed: number;
  mode: Mode;
  /** Where field sampling runs: `auto` lets the start-up probe decide. */
  sampling: SamplingChoiceParam;
  /** null: the mode's default view. */
  camera: CameraState | null;
}

export interface UrlProblem {
  param: string;
  value: string;
  message: string;
}

export const DEFAULT_STATE: Readonly<AppState> = Object.freeze({ seed: 1, mode: 'explore', sampling: 'auto', camera: null });

const SEED_RE = /^\d{1,10}$/;

export function parseSeed(value: string): number | null {
  const text = value.trim();
  if (!SEED_RE.test(text)) return null;
  const n = Number(text);
  return n <= MAX_SEED ? n : null;
}

function parseCamera(value: string): CameraState | null {
  const parts = value.split(',');
  if (parts.length !== 6) return null;
  const nums = parts.map((p) => (p.trim() === '' ? NaN : Number(p)));
  if (!nums.every(Number.isFinite)) return null;
  const [px, py, pz, tx, ty, tz] = nums;
  if (px === tx && py === ty && pz === tz) return null; // no view direction
  return { position: [px, py, pz], target: [tx, ty, tz] };
}

/** Reads the app state from a query string (`location.search`). Never throws. */
export function parseAppState(search: string): { state: AppState; problems: UrlProblem[] } {
  const params = new URLSearchParams(search);
  const problems: UrlProblem[] = [];
  const state: AppState = { ...DEFAULT_STATE };

  const seed = params.get('seed');
  if (seed !== null) {
    const parsed = parseSeed(seed);
    if (parsed === null) {
      problems.push({
        param: 'seed',
        value: seed,
        message: `seed "${clip(seed)}" is not a whole number from 0 to ${MAX_SEED}; using seed ${DEFAULT_STATE.seed}`,
      });
    } else {
      state.seed = parsed;
    }
  }

  const mode = params.get('mode');
  if (mode !== null) {
    if ((MODES as readonly string[]).includes(mode)) {
      state.mode = mode as Mode;
    } else {
      problems.push({
        param: 'mode',
        value: mode,
        message: `mode "${clip(mode)}" is not one of ${MODES.join(', ')}; using ${DEFAULT_STATE.mode}`,
      });
    }
  }

  const sampling = params.get('sampling');
  if (sampling !== null) {
    if ((SAMPLING_CHOICES as readonly string[]).includes(sampling)) {
      state.sampling = sampling as SamplingChoiceParam;
    } else {
      problems.push({
        param: 'sampling',
        value: sampling,
        message: `sampling "${clip(sampling)}" is not one of ${SAMPLING_CHOICES.join(', ')}; using auto`,
      });
    }
  }

  const cam = params.get('cam');
  if (cam !== null) {
    const parsed = parseCamera(cam);
    if (parsed === null) {
      problems.push({
        param: 'cam',
        value: cam,
        message: `cam "${clip(cam)}" is not six finite numbers px,py,pz,tx,ty,tz (position ≠ target); using the default view`,
      });
    } else {
      state.camera = parsed;
    }
  }
  return { state, problems };
}

/** Shortest decimal that reads back within 1e-4 m: keeps URLs short and views reproducible. */
export function formatCoord(x: number): string {
  const s = x.toFixed(4);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/**
 * Writes the state into a query string, keeping unrelated parameters of `base`.
 * Defaults are written too (seed and mode always), so a shared URL never depends on
 * what the defaults are in a later version.
 */
export function formatAppState(state: AppState, base = ''): string {
  const params = new URLSearchParams(base);
  params.set('seed', String(state.seed));
  params.set('mode', state.mode);
  if (state.sampling !== 'auto') params.set('sampling', state.sampling);
  else params.delete('sampling');
  if (state.camera) {
    params.set('cam', [...state.camera.position, ...state.camera.target].map(formatCoord).join(','));
  } else {
    params.delete('cam');
  }
  return `?${params.toString().replace(/%2C/g, ',')}`;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
