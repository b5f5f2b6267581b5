/**
 * The one message envelope between the main thread and our workers (docs/design.md, house rule 9):
 * `{ id, kind, params }` → `{ id, result }` or `{ id, error }`. Errors cross as plain
 * `{ name, message, stack }` and are rebuilt on the other side so callers can tell a lost
 * context from a shader error by `name`.
 */
export interface WorkerRequest<K extends string = string, P = unknown> {
  id: number;
  kind: K;
  params: P;
}

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
}

export type WorkerResponse<R = unknown> = { id: number; result: R } | { id: number; error: SerializedError };

/**
 * What a pooled worker sends (jobQueue.ts): answers, and `started` as it starts job `id`, with the
 * time it has spent with no job to run so far (ms).
 */
export type PoolWorkerMessage<R = unknown> = WorkerResponse<R> | { id: number; started: true; idleMs: number };

export function serializeError(e: unknown): SerializedError {
  if (e instanceof Error) return { name: e.name, message: e.message, stack: e.stack };
  return { name: 'Error', message: String(e) };
}

/** An Error with the original name, message and (worker-side) stack. */
export function deserializeError(s: SerializedError): Error {
  const e = new Error(s.message);
  e.name = s.name;
  if (s.stack) e.stack = s.stack;
  return e;
}
