/**
 * The bodies a worker knows, by id. The main thread registers each body once per worker
 * (`registerBody` messages, sent by BodyMesher through WorkerPool.broadcast and to the GPU sampling
 * worker), and every job names its body instead of carrying the recipe: a 50-node planet recipe
 * crossed the thread boundary, was structured-cloned and re-keyed with JSON.stringify for each of
 * thousands of chunk jobs. What a job module derives from a body (compiled JS fields, chunk
 * spaces, GPU programs) is kept on the registration and dropped with it.
 *
 * No DOM: the same registry class serves the body workers, the GPU sampling worker and Node tests;
 * each worker's entry file makes its own ({@link BodyRegistry}), no module holds one.
 */
import type { FieldRecipe } from '../field/recipe';
import type { CubeSphereOptions } from '../lod/index';
import type { GroundPalette } from '../field/groundColours';

export interface BodyDefinition {
  recipe: FieldRecipe;
  /** Planets: the cube-sphere chunk space their chunk and seam jobs work in. */
  space?: CubeSphereOptions;
  /** Planets with a coloured ground: its palette; their pieces get per-vertex colours (src/field/groundColours.ts). */
  ground?: GroundPalette;
}

export interface RegisteredBody extends BodyDefinition {
  readonly id: string;
  /** What job modules derived from the body, by the deriving module's key (see {@link derived}). */
  readonly derived: Map<string, unknown>;
}

/** The control messages that (un)register a body (protocol.ts's envelope, id 0: no answer). */
export type BodyRegistrationMessage =
  | { id: 0; kind: 'registerBody'; params: { body: string; definition: BodyDefinition } }
  | { id: 0; kind: 'unregisterBody'; params: { body: string } };

export class UnknownBodyError extends Error {
  override name = 'UnknownBodyError';
}

/**
 * One worker's registered bodies: made by its entry file (body.worker.ts, gpuSampler.worker.ts) and
 * handed to the jobs, or by a Node test.
 */
export class BodyRegistry {
  private readonly bodies = new Map<string, RegisteredBody>();

  /** Registers (or replaces) body `id`; what was derived from an earlier definition is dropped. */
  register(id: string, definition: BodyDefinition): void {
    this.bodies.set(id, { id, recipe: definition.recipe, space: definition.space, ground: definition.ground, derived: new Map() });
  }

  unregister(id: string): void {
    this.bodies.delete(id);
  }

  /** The body a job names; throws {@link UnknownBodyError} when it was never registered here. */
  body(id: string): RegisteredBody {
    const body = this.bodies.get(id);
    if (!body) throw new UnknownBodyError(`body "${id}" is not registered with this worker (registerBody must come before its jobs)`);
    return body;
  }

  /** The planet a job names: a registered body with a chunk space. */
  planet(id: string): RegisteredBody & { space: CubeSphereOptions } {
    const body = this.body(id);
    if (!body.space) throw new UnknownBodyError(`body "${id}" is registered without a chunk space: it is not a planet`);
    return body as RegisteredBody & { space: CubeSphereOptions };
  }

  /** Bodies registered here (tests, stats). */
  get size(): number {
    return this.bodies.size;
  }

  /** Applies a registration message; false when `msg` is not one (a job or another control message). */
  handle(msg: { kind: string; params: unknown }): msg is BodyRegistrationMessage {
    if (msg.kind === 'registerBody') {
      const p = msg.params as { body: string; definition: BodyDefinition };
      this.register(p.body, p.definition);
      return true;
    }
    if (msg.kind === 'unregisterBody') {
      this.unregister((msg.params as { body: string }).body);
      return true;
    }
    return false;
  }
}

/** `make()` once per body and key, kept while the body stays registered. */
export function derived<T>(body: RegisteredBody, key: string, make: () => T): T {
  if (!body.derived.has(key)) body.derived.set(key, make());
  return body.derived.get(key) as T;
}
