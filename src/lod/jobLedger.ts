/**
 * The planet's jobs out, in one place (issue 44): which chunk and seam jobs are running, their
 * handles and priorities, the answers waiting to be applied, and the jobs that ended without one.
 * The streaming model (planetStreaming.ts) owns one; before it, the model kept the running set and
 * the view a second map of handles, and one chunk job crossed between the two five times.
 *
 * A job is out from {@link JobLedger.add} until the model takes it back ({@link JobLedger.remove}:
 * its answer applied, stale, failed) — an answered job stays out until its answer is applied, so
 * the model never starts it twice nor counts it as free room. Answers are matched to the entry
 * they were made for, not to the id: a job cancelled and started again under the same id (the
 * camera came back) must not take its predecessor's answer, nor lose its own to it.
 * Pure; no workers, no timers.
 */
import type { ChunkKey } from './chunkKey.ts';
import type { JobHandle } from './pieceProvider.ts';

/** One job out. */
export interface LedgerEntry {
  readonly id: string;
  readonly kind: 'chunk' | 'seam';
  /** The chunk (a seam's owner). */
  readonly key: ChunkKey;
  /** The model's priority, without the app's offset. */
  readonly priority: number;
  handle: JobHandle | null;
  /** Its answer came (it waits in the finished queue, or was applied). */
  answered: boolean;
}

/** An answer waiting to be applied, with the entry it answers. */
export interface Finished<M> {
  entry: LedgerEntry;
  make: M;
}

export class JobLedger<M> {
  private readonly entries = new Map<string, LedgerEntry>();
  /** Chunk jobs out per chunk key (any restriction). */
  private readonly chunks = new Map<ChunkKey, number>();
  private readonly finished: Finished<M>[] = [];
  /** Jobs started and not answered (the overlay's "busy"). */
  private unanswered = 0;
  /** Jobs that ended without an answer (cancelled while running, failed) since {@link takeEnded}. */
  private ended = 0;
  /** The offset the running jobs' pool priorities carry. */
  private offset = 0;

  /** Jobs out: running, or answered and not yet applied. */
  get size(): number {
    return this.entries.size;
  }

  /** Jobs started and not answered yet. */
  get inFlight(): number {
    return this.unanswered;
  }

  /** Answers waiting to be applied. */
  get finishedCount(): number {
    return this.finished.length;
  }

  /** Chunks with a job out. */
  get chunksOut(): number {
    return this.chunks.size;
  }

  /** The priority offset jobs are started with (see {@link reprioritise}). */
  get priorityOffset(): number {
    return this.offset;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Some chunk job for `key` is out (whatever restriction it guessed). */
  chunkOut(key: ChunkKey): boolean {
    return this.chunks.has(key);
  }

  /** The jobs out (removing while iterating is allowed). */
  values(): IterableIterator<LedgerEntry> {
    return this.entries.values();
  }

  /** Records a job as out; its handle is set once it starts. */
  add(id: string, kind: 'chunk' | 'seam', key: ChunkKey, priority: number): LedgerEntry {
    const entry: LedgerEntry = { id, kind, key, priority, handle: null, answered: false };
    this.entries.set(id, entry);
    this.unanswered++;
    if (kind === 'chunk') this.chunks.set(key, (this.chunks.get(key) ?? 0) + 1);
    return entry;
  }

  /** The entry is the one out under its id. */
  isCurrent(entry: LedgerEntry): boolean {
    return this.entries.get(entry.id) === entry;
  }

  /** A job's answer: queued to be applied (dropped when the job was cancelled or taken back meanwhile). */
  answer(entry: LedgerEntry, make: M): void {
    if (entry.answered || !this.isCurrent(entry)) return;
    entry.answered = true;
    this.unanswered--;
    this.finished.push({ entry, make });
  }

  /** The oldest answer waiting, or undefined. */
  takeFinished(): Finished<M> | undefined {
    return this.finished.shift();
  }

  /** Takes a job back (done, stale, failed); false when it was not out. */
  remove(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    if (!entry.answered) this.unanswered--;
    if (entry.kind === 'chunk') {
      const n = (this.chunks.get(entry.key) ?? 1) - 1;
      if (n > 0) this.chunks.set(entry.key, n);
      else this.chunks.delete(entry.key);
    }
    return true;
  }

  /** Takes `entry` back if it is still the one out under its id. */
  removeEntry(entry: LedgerEntry): boolean {
    return this.isCurrent(entry) && this.remove(entry.id);
  }

  /** Takes a job back and cancels it if it is still running (an answered one is applied as it is). */
  cancel(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.remove(id);
    if (entry.answered) return;
    entry.handle?.cancel();
    this.ended++;
  }

  /** A job failed for good: taken back if it is still out; counted as ended. */
  fail(entry: LedgerEntry): void {
    this.removeEntry(entry);
    this.ended++;
  }

  /** Jobs that ended without an answer since the last call (progress counts them done). */
  takeEnded(): number {
    const n = this.ended;
    this.ended = 0;
    return n;
  }

  /** Sets the offset on every running job's pool priority (only when it changed). */
  reprioritise(offset: number): void {
    if (offset === this.offset) return;
    this.offset = offset;
    for (const e of this.entries.values()) if (!e.answered) e.handle?.setPriority(e.priority + offset);
  }

  /** Cancels every running job and forgets everything. */
  clear(): void {
    for (const e of this.entries.values()) if (!e.answered) e.handle?.cancel();
    this.entries.clear();
    this.chunks.clear();
    this.finished.length = 0;
    this.unanswered = 0;
  }
}
