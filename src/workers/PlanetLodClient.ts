/**
 * The main thread's side of the planet LOD worker (lod.worker.ts): posts views and what the
 * renderer learned (chunks in, chunks gone, chunks empty or full), one select in flight at a time,
 * and knows whether the latest answer still speaks for the current state (`answerIsCurrent`).
 *
 * Watched like the body workers (issue 45; the rule is silenceWatch.ts): a worker that owes an
 * answer (its init, a select) and stays silent past the allowance, or dies, is terminated and
 * replaced, and what it knew is replayed to the new one — the recipe, the user's brushes, the ready
 * chunks, the empty/full marks since the last edit — then the select is asked again; the user is
 * told (`onWorkerLost`). An error the worker survives (an uncaught throw in a handler) is reported
 * as that, a warning, and the select it cost is asked again.
 */
import type { Brush, FieldRecipe } from '../field/index';
import type { ChunkKey, CubeSphereOptions, LodSelectResult, LodView, SelectOptions } from '../lod/index';
import { deserializeError, type LodWorkerRequest, type WorkerResponse } from './protocol';
import { SilenceWatch } from '../jobs/silenceWatch';

export interface PlanetLodClientOptions {
  recipe: FieldRecipe;
  space: CubeSphereOptions;
  select: SelectOptions;
  onAnswer: (result: LodSelectResult) => void;
  /** A problem to report (`level` 'warning' when the worker carries on or was replaced). */
  onError: (message: string, level?: 'warning' | 'error') => void;
  /** Silence allowed before the worker counts as gone (default 10 s; silenceWatch.ts). */
  stallMs?: number;
}

export class PlanetLodClient {
  private worker!: Worker;
  /** Workers replaced after they died or went silent. */
  replaced = 0;
  private readonly watch: SilenceWatch;
  /** What the worker knows, to replay to a replacement: ready chunks, marks since the last edit, brushes. */
  private readonly known = {
    ready: new Set<ChunkKey>(),
    homogeneous: new Map<ChunkKey, { state: 'empty' | 'full'; proven: boolean }>(),
    brushes: [] as Brush[],
  };
  private nextId = 1;
  /** A select is in flight. */
  selecting = false;
  /**
   * Bumped by every message that changes what the worker knows (ready, evicted, homogeneous): an
   * answer to a select posted before the last of them may be followed by one that asks for more
   * (the explore test saw 'complete' flicker).
   */
  private stateVersion = 0;
  /** The state version the last edit was posted at: answers to selects posted before it are dropped. */
  private editVersion = 0;
  private selectVersion = -1;
  private answeredVersion = -2;
  private ready: ChunkKey[] = [];
  private evicted: ChunkKey[] = [];

  constructor(private readonly options: PlanetLodClientOptions) {
    this.watch = new SilenceWatch({ stallMs: options.stallMs, onSilent: (ms) => this.replace(`stopped answering (no word for ${(ms / 1000).toFixed(1)} s)`) });
    this.spawn();
  }

  /** A worker, told everything the last one knew (none at first). */
  private spawn(): void {
    const worker = new Worker(new URL('./lod.worker.ts', import.meta.url), { type: 'module', name: 'planet-lod' });
    this.worker = worker;
    worker.onmessage = (e: MessageEvent<WorkerResponse<LodSelectResult | { levels: number }>>) => this.onMessage(e.data);
    // An uncaught error in a handler: the worker carries on (a load or start-up error leaves it silent: the watch finds that).
    worker.onerror = (e) => {
      e.preventDefault();
      this.options.onError(`Planet LOD worker: an error it carried on after: ${e.message || 'uncaught error'}`, 'warning');
      this.lostSelect();
    };
    const { recipe, space, select } = this.options;
    this.post({ id: this.nextId++, kind: 'init', params: { recipe, space, select } });
    this.watch.expect(); // init answers too
    const { ready, homogeneous, brushes } = this.known;
    if (brushes.length > 0) this.post({ id: 0, kind: 'edit', params: { brushes, changed: [] } });
    if (ready.size > 0) this.post({ id: 0, kind: 'ready', params: { keys: [...ready] } });
    for (const [key, mark] of homogeneous) this.post({ id: 0, kind: 'homogeneous', params: { key, ...mark } });
  }

  /** The worker died or went silent: a new one, told what the old one knew; the select is asked again. */
  private replace(why: string): void {
    this.worker.terminate();
    this.replaced++;
    this.lostSelect();
    this.spawn();
    this.options.onError(`Planet LOD worker ${why}; replaced it, told the new one what the old knew, and asked again`, 'warning');
  }

  /** The select in flight will not be answered: the next frame asks again. */
  private lostSelect(): void {
    this.watch.stop();
    this.selecting = false;
    this.stateVersion++; // the answer in hand no longer speaks for the current state
  }

  private post(msg: LodWorkerRequest): void {
    if (msg.kind !== 'select') this.stateVersion++;
    this.worker.postMessage(msg);
  }

  markReady(key: ChunkKey): void {
    this.ready.push(key);
  }

  markEvicted(key: ChunkKey): void {
    this.evicted.push(key);
  }

  markHomogeneous(key: ChunkKey, state: 'empty' | 'full', proven: boolean): void {
    this.known.homogeneous.set(key, { state, proven });
    this.post({ id: 0, kind: 'homogeneous', params: { key, state, proven } });
  }

  /** Silence allowed now before the worker counts as gone, ms (silenceWatch.ts). */
  get allowanceMs(): number {
    return this.watch.allowanceMs;
  }

  /** Test hook: the worker stops answering (a busy loop), as a hung one would. */
  debugHang(): void {
    this.worker.postMessage({ id: 0, kind: 'debugHang', params: {} });
  }

  /**
   * The planet's brushes changed (issue 19): the worker's field, shell and homogeneous record follow.
   * An answer to a select posted before this is dropped: its empty/full marks may be of the old field.
   */
  edit(brushes: readonly Brush[], changed: readonly Brush[]): void {
    this.flush();
    // Marks in the reach of the change are forgotten by the worker; a replacement starts without any.
    this.known.brushes = [...brushes];
    this.known.homogeneous.clear();
    this.post({ id: 0, kind: 'edit', params: { brushes: [...brushes], changed: [...changed] } });
    this.editVersion = this.stateVersion;
  }

  /** Sends the batched ready/evicted keys (once a frame). */
  flush(): void {
    for (const k of this.ready) this.known.ready.add(k);
    for (const k of this.evicted) this.known.ready.delete(k);
    if (this.ready.length > 0) this.post({ id: 0, kind: 'ready', params: { keys: this.ready } });
    if (this.evicted.length > 0) this.post({ id: 0, kind: 'evicted', params: { keys: this.evicted } });
    this.ready = [];
    this.evicted = [];
  }

  /**
   * Nothing batched, and the latest answer was to a select posted after every state change; a
   * select in flight may be asking again for another view (the caller knows whether it moved).
   */
  get answerSpeaksForState(): boolean {
    return this.ready.length === 0 && this.evicted.length === 0 && this.answeredVersion === this.stateVersion;
  }

  /** {@link answerSpeaksForState}, and no select in flight. */
  get answerIsCurrent(): boolean {
    return !this.selecting && this.answerSpeaksForState;
  }

  /** Something was told (or is batched to be told) since the selection the worker last answered. */
  get hasNews(): boolean {
    return this.ready.length > 0 || this.evicted.length > 0 || this.answeredVersion !== this.stateVersion;
  }

  select(view: LodView, errorFactor: number): void {
    this.flush();
    this.selecting = true;
    this.selectVersion = this.stateVersion;
    this.post({ id: this.nextId++, kind: 'select', params: { view, errorFactor } });
    this.watch.expect();
  }

  private onMessage(msg: WorkerResponse<LodSelectResult | { levels: number }>): void {
    // Init and selects are owed answers (other messages' errors come as id 0); a select's time sets the allowance.
    if (msg.id !== 0) this.watch.answered('error' in msg || 'drawn' in (msg.result as object));
    if ('error' in msg) {
      this.selecting = false;
      this.options.onError(`Planet LOD worker: ${deserializeError(msg.error).message} (the worker carries on)`, 'warning');
      return;
    }
    const result = msg.result as LodSelectResult;
    if (!('drawn' in result)) return; // init
    this.selecting = false;
    if (this.selectVersion < this.editVersion) return; // asked before an edit: the next select asks again
    this.answeredVersion = this.selectVersion;
    this.options.onAnswer(result);
  }

  dispose(): void {
    this.watch.stop();
    this.worker.terminate();
  }
}
