/**
 * Worker entry: owns a WebGL2 context on an OffscreenCanvas and a GpuFieldSampler, so field
 * sampling never touches the main thread. Thin adapter around the sampler (docs/design.md, house rule 9).
 *
 * Requests: `init` → the samplers made, and what this worker can do (GpuWorkerCapabilities); `registerBody` / `unregisterBody` (bodyRegistry.ts: every
 * sampling job names a body registered here); `grid` / `edges` / `chunk` → samples of a cartesian grid;
 * `planetChunk` → a cube-sphere planet chunk's grid values and hermite data (planetGpuSamples.ts:
 * one band-limited program for every level, the mapping relative to the chunk); buffers
 * transferred: the main thread owns them afterwards. `cancel` → drops job `params.id`. `stats` →
 * where this worker's time went (GpuWorkerStats, for benchmarks). `measure` → chunks timed
 * on this GPU and in JS here (samplingMeasure.ts; the scene's planet chunks: planetSamplingMeasure.ts), for the
 * start-up choice of sampling path.
 */
import { GpuFieldSampler, type GpuCollect, type GpuJob } from '../gpu/GpuFieldSampler';
import type { GpuChunkSamples } from '../gpu/samplerTypes';
import { CubeSphereSpace, parseChunkKey } from '../lod/index';
import mapCubeSphere from '../../glsl/sr_map_cubesphere.glsl?raw';
import { derived, type RegisteredBody } from '../jobs/bodyRegistry';
import { createWorkerState } from '../jobs/workerState';
import type { FieldRecipe } from '../field/index';
import { planetChunkGrid } from '../jobs/planetGpuSamples';
import { measureGpu, prepareMeasurement } from '../jobs/samplingMeasure';
import { measurePlanetGpu, preparePlanetMeasurement } from '../jobs/planetSamplingMeasure';
import { serializeError, type GpuBodyReadyEvent, type GpuWorkerCapabilities, type GpuWorkerRequest, type GpuWorkerStats, type WorkerResponse } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
/** The bodies registered here, and the planet sampling measurement's chunk caches (workerState.ts). */
const state = createWorkerState();
let sampler: GpuFieldSampler | null = null;
/** Planet chunks: the cube-sphere mapping and a band-limited field (`sr_band`), on the same context. */
let planetSampler: GpuFieldSampler | null = null;
let capabilities: GpuWorkerCapabilities | null = null;
const jobs = new Map<number, GpuJob<unknown>>();
const loop = { handlerMs: 0, replyMs: 0 };

function reply(message: WorkerResponse, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

function init(poison: boolean, permutationTexture = true, maxBatchJobs?: number, collect?: GpuCollect): GpuWorkerCapabilities {
  if (capabilities) return capabilities;
  if (typeof OffscreenCanvas === 'undefined') {
    return (capabilities = { ok: false, renderer: '', reason: 'no OffscreenCanvas in workers' });
  }
  const canvas = new OffscreenCanvas(1, 1);
  const gl = canvas.getContext('webgl2', { antialias: false, depth: false, stencil: false });
  if (!gl) return (capabilities = { ok: false, renderer: '', reason: 'no WebGL2 on OffscreenCanvas in workers' });
  const debug = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(debug ? gl.getParameter(debug.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
  try {
    // Bodies (asteroids): one program set per recipe shape — their numbers are data (issue 16),
    // which needs the permutation tables in a texture. Their few, latency-bound batches are read back
    // at once (65³ grid 2.4–3.2 ms against 4.9–6.1 ms polled, H100); the planet's many batches in flight are
    // polled: read back at once, they held the GPU process and its page got 16 long tasks in a teleport.
    sampler = new GpuFieldSampler(gl, {
      label: 'worker sampler', poison, maxBatchJobs, collect: collect ?? 'sync', fieldOptions: { permutationTexture, numbersAsData: permutationTexture },
    });
    planetSampler = new GpuFieldSampler(gl, {
      label: 'planet sampler', poison, mappingGlsl: mapCubeSphere, fieldOptions: { bandUniforms: true, permutationTexture, chunkRelative: true }, maxBatchJobs, collect: collect ?? 'poll',
    });
  } catch (e) {
    return (capabilities = { ok: false, renderer, reason: e instanceof Error ? e.message : String(e) });
  }
  canvas.addEventListener('webglcontextlost', (event) => {
    event.preventDefault();
    sampler?.contextLost();
    planetSampler?.contextLost();
  });
  canvas.addEventListener('webglcontextrestored', () => {
    sampler?.contextRestored();
    planetSampler?.contextRestored();
  });
  return (capabilities = { ok: true, renderer, reason: '' });
}


/** Bodies whose programs were asked for since their registration (prepareBody runs once each). */
const prepared = new Set<string>();

/** Starts compiling a registered body's programs (the planet's on its sampler), if a sampler exists. */
function prepareBody(id: string): void {
  if (prepared.has(id)) return;
  const body = state.registry.body(id);
  prepared.add(id);
  if (body.space) planetSampler?.prepare(body.recipe);
  else sampler?.prepare(body.recipe);
  watchReady(id, body.recipe);
}

/**
 * Tells the main thread when body `id`'s programs have linked: until then its jobs are better run
 * in JS than queued behind a compile (a fresh profile on the H100 machine waited seconds).
 * Without KHR_parallel_shader_compile the first ask waits for the link, here in the worker.
 */
function watchReady(id: string, recipe: FieldRecipe): void {
  let current: RegisteredBody;
  try {
    current = state.registry.body(id);
  } catch {
    return; // unregistered meanwhile
  }
  if (current.recipe !== recipe) return; // registered again: that registration watches
  const target = current.space ? planetSampler : sampler;
  if (!target) return;
  const tell = (ok: boolean, reason: string) => scope.postMessage({ event: 'bodyReady', body: id, ok, reason } satisfies GpuBodyReadyEvent);
  try {
    if (target.programsReady(recipe)) tell(true, '');
    else setTimeout(() => watchReady(id, recipe), 5);
  } catch (e) {
    tell(false, e instanceof Error ? e.message : String(e));
  }
}

function releaseBody(id: string): void {
  let body: RegisteredBody;
  try {
    body = state.registry.body(id);
  } catch {
    return; // not registered: the registry reports nothing either
  }
  if (body.space) planetSampler?.release(body.recipe);
  else sampler?.release(body.recipe);
}

function samplePlanetChunk(id: string, key: string): GpuJob<unknown> {
  const body = state.registry.planet(id);
  const space = derived(body, 'gpuSampler.space', () => new CubeSphereSpace(body.space));
  const compiled = planetSampler!.compiledField(body.recipe);
  return planetSampler!.sampleChunk(body.recipe, planetChunkGrid(space, parseChunkKey(key), compiled.bandSlots, compiled.relative));
}

scope.onmessage = (event: MessageEvent<GpuWorkerRequest>) => {
  const start = performance.now();
  handle(event.data);
  loop.handlerMs += performance.now() - start;
};

function handle(msg: GpuWorkerRequest): void {
  try {
    if (msg.kind === 'stats') {
      const stats: GpuWorkerStats = {
        planet: planetSampler ? structuredClone(planetSampler.timing) : null,
        bodies: sampler ? structuredClone(sampler.timing) : null,
        programSets: { bodies: sampler?.programsBuilt ?? 0, planet: planetSampler?.programsBuilt ?? 0 },
        ...loop,
      };
      reply({ id: msg.id, result: stats });
      return;
    }
    if (msg.kind === 'init') {
      const p = msg.params;
      reply({ id: msg.id, result: init(p.poison ?? false, p.permutationTexture ?? true, p.maxBatchJobs, p.collect) });
      return;
    }
    if (msg.kind === 'measure') {
      if (!init(false).ok || !sampler) throw new Error(`GPU sampling unavailable in this worker: ${capabilities?.reason}`);
      const p = msg.params;
      // On a planet (planetSamplingMeasure.ts): its chunks and its programs, which the GPU path needs next anyway.
      let work: Promise<unknown>;
      if (p.planet) {
        const { body } = p.planet;
        const sample = (key: string) => samplePlanetChunk(body, key) as GpuJob<GpuChunkSamples>;
        work = p.phase === 'prepare' ? preparePlanetMeasurement(state, p.planet, sample) : measurePlanetGpu(state, p.planet, sample, p.prepared, p.workers);
      } else {
        work = p.phase === 'prepare' ? Promise.resolve(prepareMeasurement(p.recipe)) : measureGpu(sampler, p.prepared, p.workers, p.recipe);
      }
      work.then(
        (result) => reply({ id: msg.id, result }),
        (error: unknown) => reply({ id: msg.id, error: serializeError(error) }),
      );
      return;
    }
    if (msg.kind === 'cancel') {
      jobs.get(msg.params.id)?.cancel();
      return;
    }
    if (msg.kind === 'prepareBody') {
      prepareBody(msg.params.body);
      return;
    }
    // A body's recipe data (not its shape's programs) leaves the GPU with its last registration.
    if (msg.kind === 'unregisterBody') {
      if (prepared.delete(msg.params.body)) releaseBody(msg.params.body);
    }
    if (state.registry.handle(msg)) {
      // A planet's programs start compiling when it is registered: its chunks stream from then on.
      // An asteroid's wait for its first job (prepareBody), which runs in JS meanwhile: most are
      // meshed at every level they need before the GPU takes over, and each shape is two programs
      // more (issue 16: the explore scene within 12).
      if (msg.kind === 'registerBody' && state.registry.body(msg.params.body).space) prepareBody(msg.params.body);
      return;
    }
    if (!init(false).ok || !sampler) throw new Error(`GPU sampling unavailable in this worker: ${capabilities?.reason}`);
    const job: GpuJob<unknown> =
      msg.kind === 'planetChunk'
        ? samplePlanetChunk(msg.params.body, msg.params.key)
        : msg.kind === 'grid'
        ? sampler.sampleGrid(state.registry.body(msg.params.body).recipe, msg.params.grid)
        : msg.kind === 'edges'
          ? sampler.sampleEdges(state.registry.body(msg.params.body).recipe, msg.params.grid, msg.params.edgeIds)
          : sampler.sampleChunk(state.registry.body(msg.params.body).recipe, msg.params.grid);
    jobs.set(msg.id, job);
    job.promise.then(
      (result) => {
        const start = performance.now();
        jobs.delete(msg.id);
        const r = result as { values?: Float32Array; t?: Float32Array; normals?: Float32Array; edgeIds?: Uint32Array; hermite?: { t: Float32Array; normals: Float32Array; edgeIds: Uint32Array } };
        const h = r.hermite;
        const transfer = [r.values, r.t, r.normals, r.edgeIds, h?.t, h?.normals, h?.edgeIds]
          .filter((a) => a !== undefined)
          .map((a) => a.buffer);
        reply({ id: msg.id, result }, transfer);
        loop.replyMs += performance.now() - start;
      },
      (error: unknown) => {
        jobs.delete(msg.id);
        reply({ id: msg.id, error: serializeError(error) });
      },
    );
  } catch (e) {
    reply({ id: msg.id, error: serializeError(e) });
  }
}
