/**
 * The main thread's side of the planet LOD worker (lod.worker.ts): posts views and what the
 * renderer learned (chunks in, chunks gone, chunks empty or full), one select in flight at a time,
 * and knows whether the latest answer still speaks for the current state (`answerIsCurrent`).
 */
import type { Brush, FieldRecipe } from '../field/index';
import type { ChunkKey, CubeSphereOptions, LodSelectResult, LodView, SelectOptions } from '../lod/index';
import type { LodWorkerRequest } from './lod.worker';
import { deserializeError, type WorkerResponse } from './protocol';

export interface PlanetLodClientOptions {
  recipe: FieldRecipe;
  space: CubeSphereOptions;
  select: SelectOptions;
  onAnswer: (result: LodSelectResult) => void;
  onError: (message: string) => void;
}

export class PlanetLodClient {
  private readonly worker: Worker;
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
    this.worker = new Worker(new URL('./lod.worker.ts', import.meta.url), { type: 'module', name: 'planet-lod' });
    this.worker.onmessage = (e: MessageEvent<WorkerResponse<LodSelectResult | { levels: number }>>) => this.onMessage(e.data);
    this.worker.onerror = (e) => options.onError(`planet LOD worker failed: ${e.message}`);
    this.post({ id: this.nextId++, kind: 'init', params: { recipe: options.recipe, space: options.space, select: options.select } });
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
    this.post({ id: 0, kind: 'homogeneous', params: { key, state, proven } });
  }

  /**
   * The planet's brushes changed (issue 19): the worker's field, shell and homogeneous record follow.
   * An answer to a select posted before this is dropped: its empty/full marks may be of the old field.
   */
  edit(brushes: readonly Brush[], changed: readonly Brush[]): void {
    this.flush();
    this.post({ id: 0, kind: 'edit', params: { brushes: [...brushes], changed: [...changed] } });
    this.editVersion = this.stateVersion;
  }

  /** Sends the batched ready/evicted keys (once a frame). */
  flush(): void {
    if (this.ready.length > 0) this.post({ id: 0, kind: 'ready', params: { keys: this.ready } });
    if (this.evicted.length > 0) this.post({ id: 0, kind: 'evicted', params: { keys: this.evicted } });
    this.ready = [];
    this.evicted = [];
  }

  /** Nothing batched, and the latest answer was to a select posted after every state change. */
  get answerIsCurrent(): boolean {
    return !this.selecting && this.ready.length === 0 && this.evicted.length === 0 && this.answeredVersion === this.stateVersion;
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
  }

  private onMessage(msg: WorkerResponse<LodSelectResult | { levels: number }>): void {
    if ('error' in msg) {
      this.selecting = false;
      this.options.onError(`planet LOD: ${deserializeError(msg.error).message}`);
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
    this.worker.terminate();
  }
}
