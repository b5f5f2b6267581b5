/**
 * The app's side of the gallery (src/app/Gallery.ts): which Gallery the URL state asks for — the
 * one shown, paged, or a new one when the kind or the page size changed — and where a click on a
 * cell leads (asteroid mode for an asteroid, planet mode for a planet).
 */
import { Gallery, type GalleryOptions } from './Gallery';
import type { AppState } from './urlState';

/** What App hands every Gallery it makes: the URL state gives kind, start and count. */
export type GalleryHost = Omit<GalleryOptions, 'kind' | 'start' | 'count' | 'ui'>;

/**
 * The gallery `state` asks for: `current` when it shows the same kind and page size (paged to
 * `state.start` when that moved: Back/Forward), else a new one (`current` disposed).
 */
export function syncGallery(current: Gallery | null, state: AppState, host: GalleryHost): Gallery {
  if (current && current.kind === state.galleryKind && current.pageSize === state.count) {
    if (current.pageStart !== state.start) current.setPage(state.start);
    return current;
  }
  current?.dispose();
  return new Gallery({ ...host, kind: state.galleryKind, start: state.start, count: state.count, ui: state.ui });
}

/** The state a click on cell `seed` opens: that asteroid, or that planet in its own class; a new view, no edits. */
export function galleryOpenState(state: AppState, seed: number): AppState {
  const mode = state.galleryKind === 'planets' ? 'planet' : 'asteroid';
  return { ...state, mode, seed, camera: null, edits: '', planetClass: null, recipe: '' };
}
