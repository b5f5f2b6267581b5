/**
 * PlanetStreaming's rules one at a time (the teleport simulation, streamingSim.ts, shows them
 * together): the memory factor's dead band, what may be evicted, a snapshot never cancelling the open
 * transaction, and what starts while memory is full. The model runs its jobs through a fake piece
 * provider (fakeProvider.ts): the tests answer them and the model applies the answers.
 */
import { describe, expect, it } from 'vitest';
import { makeBrush } from '../../src/field/index';
import { applyAll, FakeProvider, type FakeJob, type FakePiece } from './fakeProvider';
import {
  chunkBoundingSphere, chunkKey, COMMIT_UPLOAD_WAIT_MS, parseChunkKey, PlanetEdits, CubeSphereSpace, ERROR_FACTOR_STEP, PlanetStreaming, type ChunkKey, type LodSelectResult, type LodSnapshot,
} from '../../src/lod/index';

const space = new CubeSphereSpace({ radiusM: 50e3, chunkCells: 32, finestCellM: 8 });
const KB = 1000;

function result(over: Partial<LodSelectResult>): LodSelectResult {
  return {
    requests: [], requestCoarser: [], wanted: [], snapshot: null, problems: [], balanceFallbacks: 0, drawn: [], holes: 0, leaves: 0,
    prefiltered: 0, thresholdPx: 6, selectMs: 0, ...over,
  };
}

type Model = PlanetStreaming<FakePiece>;
/** Each model's fake provider. */
const providers = new WeakMap<Model, FakeProvider>();

function model(
  budget: number, log: string[] = [], planning: { planBudgetMs?: number; clock?: () => number; uploaded?: (p: FakePiece) => boolean } = {},
): Model {
  const provider = new FakeProvider(log, planning.uploaded);
  const m = new PlanetStreaming<FakePiece>({
    space, budgetBytes: budget, provider,
    onReady: () => {}, onEvicted: () => {}, onHomogeneous: () => {},
    // A still clock unless a test brings its own: planning then never runs out of its time budget, so what
    // one update starts does not depend on how loaded the machine is (a loaded CI once left a seam unstarted).
    planBudgetMs: planning.planBudgetMs, clock: planning.clock ?? (() => 0),
  });
  providers.set(m, provider);
  return m;
}

const fake = (m: Model): FakeProvider => providers.get(m)!;

/** Starts what the model starts (at most `maxRunning` out) and returns those jobs. */
function nextJobs(m: Model, maxRunning: number, mayStart?: () => boolean): FakeJob[] {
  m.schedule(maxRunning, mayStart);
  return fake(m).take();
}

/** Answers `job` with a piece of `bytes` and applies it. */
function done(m: Model, job: FakeJob, bytes: number, triangles = 1): void {
  fake(m).answer(job, bytes, triangles);
  applyAll(m);
}

const keys = (n: number, level = 2): ChunkKey[] => Array.from({ length: n }, (_, i) => chunkKey(0, level, i, 0, 0));

/** Requests for `ks`, started and answered with a surface piece of `bytes` each. */
function fill(m: Model, ks: ChunkKey[], bytes: number): void {
  m.onSelect(result({ requests: ks.map((key) => ({ key, priority: 1 })), requestCoarser: ks.map(() => []), wanted: ks }));
  for (const job of nextJobs(m, 1e6)) {
    if (job.kind === 'chunk') fake(m).answerChunk(job, bytes, 10);
  }
  applyAll(m);
}

describe('PlanetStreaming', () => {
  it('raises the error factor while the wanted set does not fit, holds it in the dead band, lowers it below', () => {
    const m = model(1000 * KB);
    fill(m, keys(12), 100 * KB); // 1,200 kB wanted and held: over the budget
    m.update(0);
    expect(m.errorFactor).toBeCloseTo(ERROR_FACTOR_STEP, 9);
    m.update(16);
    expect(m.errorFactor).toBeCloseTo(ERROR_FACTOR_STEP ** 2, 9);
    // The selection shrinks to 9 chunks (900 kB: between 80 % and 100 % of the budget): it holds.
    m.onSelect(result({ wanted: keys(9) }));
    for (let i = 0; i < 5; i++) m.update(32 + 16 * i);
    expect(m.errorFactor).toBeCloseTo(ERROR_FACTOR_STEP ** 2, 9);
    // 5 chunks (500 kB): back toward 1, never below.
    m.onSelect(result({ wanted: keys(5) }));
    for (let i = 0; i < 10; i++) m.update(200 + 16 * i);
    expect(m.errorFactor).toBe(1);
  });

  it('never evicts a wanted chunk: over budget with everything wanted, nothing goes; unwanted pieces go first', () => {
    const log: string[] = [];
    const m = model(500 * KB, log);
    fill(m, keys(8), 100 * KB);
    m.update(0);
    expect(log.filter((l) => l.startsWith('dispose'))).toEqual([]);
    expect(m.bytes).toBe(800 * KB);
    m.onSelect(result({ wanted: keys(8).slice(0, 3) }));
    m.update(16);
    expect(m.bytes).toBeLessThanOrEqual(500 * KB);
    const disposed = log.filter((l) => l.startsWith('dispose')).map((l) => l.slice(8));
    expect(disposed).toHaveLength(3);
    for (const k of keys(8).slice(0, 3)) expect(disposed.some((id) => id.includes(`c:${k}|`))).toBe(false);
  });

  it('a newer snapshot waits for the open transaction; the commit shows it, then the newer one is planned', () => {
    const log: string[] = [];
    const m = model(10_000 * KB, log);
    const [a, b] = keys(2);
    fill(m, [a, b], 10 * KB);
    const snap = (ks: ChunkKey[]): LodSnapshot => ({ keys: ks, coarser: ks.map(() => []), stitches: ks.map(() => []), homogeneous: ks.map(() => null) });
    m.onSelect(result({ snapshot: snap([a]), wanted: [a, b] }));
    m.update(0); // begins the transaction of [a]: its seam is to build
    const seams = nextJobs(m, 100);
    expect(seams.map((j) => j.kind)).toEqual(['seam']);
    m.onSelect(result({ snapshot: snap([a, b]), wanted: [a, b] }));
    m.update(16);
    expect(m.drawnChunks).toBe(0); // still open: the newer snapshot did not cancel it
    const seam = seams[0];
    done(m, seam, 1 * KB);
    m.update(32);
    expect(m.drawnChunks).toBe(1);
    expect(log).toContain(`show ${seam.id}`);
    m.update(200); // 130 ms later the waiting snapshot becomes the transaction
    expect(m.transactionPending).toBeGreaterThan(0);
  });

  it('over budget + overflow, only requests that move the drawn set start: its frontier and its ancestors', () => {
    const m = model(100 * KB);
    const drawnKey = chunkKey(0, 2, 2, 2, 2);
    fill(m, [drawnKey], 10 * KB);
    m.onSelect(result({ snapshot: { keys: [drawnKey], coarser: [[]], stitches: [[]], homogeneous: [null] }, wanted: [drawnKey] }));
    m.update(0);
    const [seam] = nextJobs(m, 100);
    done(m, seam, 1 * KB);
    m.update(16);
    expect(m.drawnChunks).toBe(1);
    const others = keys(3, 5);
    fill(m, others, 100 * KB); // 300 kB more, all wanted: over 100 + 25 kB
    m.onSelect(result({ wanted: [drawnKey, ...others] }));
    m.update(32);
    expect(m.memoryFull).toBe(true);
    const child = chunkKey(0, 1, 4, 4, 4); // parent drawn: on the frontier
    const grandchild = chunkKey(0, 0, 8, 8, 8); // two levels below what is drawn
    const parent = chunkKey(0, 3, 1, 1, 1); // an ancestor: a coarser drawn set frees memory
    const ks = [child, grandchild, parent];
    m.onSelect(result({ requests: ks.map((key) => ({ key, priority: 1 })), requestCoarser: ks.map(() => []), wanted: [drawnKey, ...others, ...ks] }));
    expect(nextJobs(m, 100).map((j) => j.key).sort()).toEqual([child, parent].sort());
  });
  it('schedule asks the frame budget again after each start it handed out (the caller\'s start cost counts)', () => {
    const m = model(100_000 * KB);
    const ks = keys(10);
    m.onSelect(result({ requests: ks.map((key) => ({ key, priority: 1 })), requestCoarser: ks.map(() => []), wanted: ks }));
    // A clock the caller advances by 3 ms per start; the budget is 10 ms: 4 starts (0, 3, 6, 9 ms).
    let clockMs = 0;
    const asked: number[] = [];
    const started: string[] = [];
    fake(m).onStart = () => void (clockMs += 3); // what starting a job costs the caller
    expect(m.schedule(1e6, () => {
      asked.push(clockMs);
      return clockMs <= 10;
    })).toBe(4);
    for (const job of fake(m).take()) started.push(job.id);
    expect(started.length).toBe(4);
    expect(asked).toEqual([0, 3, 6, 9, 12]);
    // The rest start on the next frame, none twice.
    fake(m).onStart = () => {};
    const rest = nextJobs(m, 1e6).map((j) => j.id);
    expect(rest.length).toBe(6);
    expect(rest.filter((id) => started.includes(id))).toEqual([]);
  });

  it('plans a large transaction over several frames, one slice at least a frame, to the plan one frame gives', () => {
    // 2,000 chunks: a plan of about 20 slices (PLAN_SLICE_KEYS). Budget 0: one slice a frame.
    const ks = Array.from({ length: 2000 }, (_, i) => chunkKey(0, 0, i % 50, Math.floor(i / 50), 0));
    const snap: LodSnapshot = { keys: ks, coarser: ks.map(() => []), stitches: ks.map(() => []), homogeneous: ks.map(() => null) };
    const whole = model(1e12, [], { planBudgetMs: Infinity });
    const sliced = model(1e12, [], { planBudgetMs: 0, clock: () => 0 });
    const half = ks.slice(0, 1000);
    for (const m of [whole, sliced]) {
      fill(m, half, 1 * KB); // half the chunks are in before the snapshot comes
      m.onSelect(result({ snapshot: snap, wanted: ks }));
    }
    whole.update(0);
    expect(whole.transactionPending).toBe(1000 + 2000); // the missing chunks and every seam
    let frames = 0;
    for (; sliced.transactionPending === 0 && frames < 100; frames++) sliced.update(16 * frames);
    expect(frames).toBeGreaterThan(10);
    expect(sliced.transactionPending).toBe(whole.transactionPending);
    expect(sliced.idle).toBe(false);
    const jobs = (m: Model): string[] => nextJobs(m, 1e6).map((j) => j.id).sort();
    expect(jobs(sliced)).toEqual(jobs(whole));
  });

  it('a piece that arrives while the transaction is planned is not waited for', () => {
    const ks = Array.from({ length: 600 }, (_, i) => chunkKey(0, 0, i % 30, Math.floor(i / 30), 0));
    const m = model(1e12, [], { planBudgetMs: 0, clock: () => 0 });
    const snap: LodSnapshot = { keys: ks, coarser: ks.map(() => []), stitches: ks.map(() => []), homogeneous: ks.map(() => null) };
    m.onSelect(result({ requests: ks.map((key) => ({ key, priority: 1 })), requestCoarser: ks.map(() => []), wanted: ks, snapshot: snap }));
    const started = nextJobs(m, 1e6);
    m.update(0); // the plan's first slice
    expect(m.transactionPending).toBe(0);
    for (const job of started) if (job.kind === 'chunk') fake(m).answerChunk(job, 1 * KB);
    applyAll(m);
    let frames = 0;
    for (; m.transactionPending === 0 && frames < 100; frames++) m.update(16 * (frames + 1));
    expect(m.transactionPending).toBe(600); // only the seams: every chunk came in meanwhile
  });

  it('a chunk proven homogeneous stops the jobs under it: queued ones never start, running ones are cancelled', () => {
    const m = model(10_000 * KB);
    const parent = chunkKey(0, 3, 0, 0, 0);
    const children = Array.from({ length: 8 }, (_, c) => chunkKey(0, 2, c & 1, (c >> 1) & 1, (c >> 2) & 1));
    const grandchild = chunkKey(0, 1, 3, 3, 3);
    const elsewhere = chunkKey(0, 2, 2, 0, 0);
    const ks = [parent, ...children, grandchild, elsewhere];
    m.onSelect(result({ requests: ks.map((key, i) => ({ key, priority: 100 - i })), requestCoarser: ks.map(() => []), wanted: ks }));
    // The parent and four children start; then the parent is proven empty.
    const started = nextJobs(m, 5);
    expect(started.map((j) => (j.kind === 'chunk' ? j.key : ''))).toEqual([parent, ...children.slice(0, 4)]);
    expect(m.requestsDrained).toBe(false);
    fake(m).answerChunk(started[0], { homogeneous: { state: 'empty', proven: true } });
    applyAll(m);
    expect(fake(m).cancelledIds().sort()).toEqual(started.slice(1).map((j) => j.id).sort());
    expect(m.runningCount).toBe(0);
    expect(m.takeEnded()).toBe(4); // progress counts the cancelled jobs done
    // Only the chunk outside the parent is left to start.
    expect(nextJobs(m, 100).map((j) => (j.kind === 'chunk' ? j.key : ''))).toEqual([elsewhere]);
    expect(m.queuedCount).toBe(0);
    // A proof that is not one (unproven: finer bands may hold a surface) stops nothing.
    const m2 = model(10_000 * KB);
    m2.onSelect(result({ requests: ks.map((key, i) => ({ key, priority: 100 - i })), requestCoarser: ks.map(() => []), wanted: ks }));
    const s2 = nextJobs(m2, 5);
    fake(m2).answerChunk(s2[0], { homogeneous: { state: 'empty', proven: false } });
    applyAll(m2);
    expect(fake(m2).cancelledIds()).toEqual([]);
    expect(nextJobs(m2, 100)).toHaveLength(ks.length - 5);
  });

  it('a surface chunk\'s proofs of its children are filed as theirs: their requests and those under them never start', () => {
    const run = (childProofs?: boolean) => {
      const filed: string[] = [];
      const provider = new FakeProvider();
      const m = new PlanetStreaming<FakePiece>({
        space, budgetBytes: 10_000 * KB, provider, onReady: () => {}, onEvicted: () => {}, clock: () => 0, childProofs,
        onHomogeneous: (key, state, proven) => void filed.push(`${key} ${state} ${proven}`),
      });
      providers.set(m, provider);
      const parent = chunkKey(0, 3, 0, 0, 0);
      const children = Array.from({ length: 8 }, (_, c) => chunkKey(0, 2, c & 1, (c >> 1) & 1, (c >> 2) & 1));
      const under0 = chunkKey(0, 1, 1, 1, 1);
      const ks = [parent, ...children, under0];
      m.onSelect(result({ requests: ks.map((key, i) => ({ key, priority: 100 - i })), requestCoarser: ks.map(() => []), wanted: ks }));
      const first = nextJobs(m, 1);
      // The parent holds a surface; its samples prove child 0 empty and child 7 full.
      provider.answerChunk(first[0], { piece: { id: first[0].id }, bytes: 10 * KB, triangles: 10, childProofs: [1, 0, 0, 0, 0, 0, 0, 2] });
      applyAll(m);
      const rest = nextJobs(m, 100).map((j) => j.key);
      return { filed, rest, children, under0, counts: m.counts };
    };
    const on = run();
    expect(on.filed).toEqual([`${on.children[0]} empty true`, `${on.children[7]} full true`]);
    expect(on.rest).toEqual(on.children.slice(1, 7));
    expect(on.counts.childrenProven).toBe(2);
    // Off (the bench's `?childProofs=0`): every request starts.
    const off = run(false);
    expect(off.filed).toEqual([]);
    expect(off.rest).toEqual([...off.children, off.under0]);
  });

  it('requests drained: nothing queued or running from the latest answer', () => {
    const m = model(10_000 * KB);
    const ks = keys(3);
    m.onSelect(result({ requests: ks.map((key) => ({ key, priority: 1 })), requestCoarser: ks.map(() => []), wanted: ks }));
    expect(m.requestsDrained).toBe(false);
    const jobs = nextJobs(m, 100);
    expect(m.requestsDrained).toBe(false); // running
    for (const job of jobs) fake(m).answerChunk(job, KB);
    expect(m.requestsDrained).toBe(false); // answered, not applied yet
    applyAll(m);
    expect(m.requestsDrained).toBe(true);
  });

  it('a ready transaction waits for its pieces\' uploads, at most COMMIT_UPLOAD_WAIT_MS', () => {
    const pendingUploads = new Set<string>();
    const m = model(10_000 * KB, [], { uploaded: (p) => !pendingUploads.has(p.id) });
    const [a] = keys(1);
    const snap: LodSnapshot = { keys: [a], coarser: [[]], stitches: [[]], homogeneous: [null] };
    m.onSelect(result({ requests: [{ key: a, priority: 1 }], requestCoarser: [[]], wanted: [a] }));
    const [chunk] = nextJobs(m, 100);
    done(m, chunk, KB);
    pendingUploads.add(chunk.id);
    m.onSelect(result({ snapshot: snap, wanted: [a] }));
    m.update(1000);
    const [seam] = nextJobs(m, 100);
    done(m, seam, KB);
    m.update(1016);
    expect(m.drawnChunks).toBe(0); // every piece in, the chunk's geometry not uploaded yet
    pendingUploads.delete(chunk.id);
    m.update(1032);
    expect(m.drawnChunks).toBe(1);
    // Uploads that never finish hold a commit no longer than the bound.
    const stuck = model(10_000 * KB, [], { uploaded: () => false });
    stuck.onSelect(result({ requests: [{ key: a, priority: 1 }], requestCoarser: [[]], wanted: [a] }));
    const [c2] = nextJobs(stuck, 100);
    done(stuck, c2, KB);
    stuck.onSelect(result({ snapshot: snap, wanted: [a] }));
    stuck.update(1000);
    const [s2] = nextJobs(stuck, 100);
    done(stuck, s2, KB);
    stuck.update(1016);
    stuck.update(1016 + COMMIT_UPLOAD_WAIT_MS - 1);
    expect(stuck.drawnChunks).toBe(0);
    stuck.update(1016 + COMMIT_UPLOAD_WAIT_MS);
    expect(stuck.drawnChunks).toBe(1);
  });

  it('an edit re-meshes the drawn chunks its brush reaches in one transaction; undo draws the cached pieces again', () => {
    const log: string[] = [];
    const m = model(10_000 * KB, log);
    const [a, b] = [chunkKey(0, 2, 0, 0, 0), chunkKey(0, 2, 40, 40, 0)];
    const snap: LodSnapshot = { keys: [a, b], coarser: [[], []], stitches: [[], []], homogeneous: [null, null] };
    const started: string[] = [];
    /** Runs frames, answering every job, until nothing is open (t: the clock, ms). */
    const settle = (t: number): number => {
      for (let i = 0; i < 50; i++, t += 200) {
        m.update(t);
        for (const job of nextJobs(m, 100)) {
          started.push(job.id);
          fake(m).answer(job, KB);
        }
        applyAll(m);
        if (m.betweenTransactions && m.runningCount === 0) break;
      }
      return t;
    };
    m.onSelect(result({ requests: [a, b].map((key) => ({ key, priority: 1 })), requestCoarser: [[], []], wanted: [a, b] }));
    let t = settle(0);
    m.onSelect(result({ snapshot: snap, wanted: [a, b] }));
    t = settle(t);
    expect(m.drawnChunks).toBe(2);
    expect(m.editsDrawn).toBe(true);
    const before = [...m.drawnPieces()].map((p) => p.id).sort();

    // A brush at chunk a's centre: a gets a new revision, b (far away) keeps its piece.
    const centre = [0, 0, 0, 0];
    chunkBoundingSphere(space, parseChunkKey(a), centre);
    const brush = makeBrush('dig', centre.slice(0, 3), 30);
    const edits = new PlanetEdits(space, [brush]);
    expect(edits.revision(parseChunkKey(a))).not.toBe('');
    expect(edits.revision(parseChunkKey(b))).toBe('');
    started.length = 0;
    m.setEdits(edits, [brush]);
    expect(m.editsDrawn).toBe(false);
    t = settle(t);
    expect(m.editsDrawn).toBe(true);
    const chunkJobs = started.filter((id) => id.startsWith('c:'));
    expect(chunkJobs).toEqual([`c:${a}|#${edits.revision(parseChunkKey(a))}`]);
    const after = [...m.drawnPieces()].map((p) => p.id);
    expect(after).toContain(chunkJobs[0]);
    expect(after).toContain(before.find((id) => id.startsWith(`c:${b}`)));
    expect(log).toContain(`hide c:${a}|`);

    // Undo: a's unedited piece is still cached, so only the seams reading it are built again.
    started.length = 0;
    m.setEdits(new PlanetEdits(space, []), [brush]);
    settle(t);
    expect(m.editsDrawn).toBe(true);
    expect(started.filter((id) => id.startsWith('c:'))).toEqual([]);
    expect([...m.drawnPieces()].map((p) => p.id).filter((id) => id.startsWith('c:')).sort()).toEqual(before.filter((id) => id.startsWith('c:')));
  });

  it('an answer made for other brushes than the chunk has now is not taken as empty or full (an undo while a dig\'s job runs)', () => {
    const marks: string[] = [];
    const provider = new FakeProvider();
    const m = new PlanetStreaming<FakePiece>({
      space, budgetBytes: 10_000 * KB, provider, onReady: () => {}, onEvicted: () => {},
      onHomogeneous: (key, state) => marks.push(`${key} ${state}`),
    });
    const a = chunkKey(0, 2, 0, 0, 0);
    const centre = [0, 0, 0, 0];
    chunkBoundingSphere(space, parseChunkKey(a), centre);
    const brush = makeBrush('dig', centre.slice(0, 3), 30);
    const dig = (): void => m.setEdits(new PlanetEdits(space, [brush]), [brush]);
    const undo = (): void => m.setEdits(new PlanetEdits(space, []), [brush]);
    dig();
    m.onSelect(result({ requests: [{ key: a, priority: 1 }], requestCoarser: [[]], wanted: [a] }));
    m.schedule(10);
    const [job] = provider.take();
    expect(job.id).toMatch(/#/); // made for the dig
    expect(job.job.kind === 'chunk' && job.job.brushes).toEqual([brush]);
    // Undo while it runs: the job is cancelled, and an answer that comes anyway is dropped.
    undo();
    expect(provider.cancelledIds()).toEqual([job.id]);
    provider.answerChunk(job, { homogeneous: { state: 'empty', proven: true } });
    applyAll(m);
    expect(marks).toEqual([]);
    const [again] = (m.schedule(10), provider.take());
    expect(again?.id).toBe(`c:${a}|`);
    expect(again.job.kind === 'chunk' && again.job.brushes).toEqual([]);
    // Dig again (what was known of the chunk is forgotten); its job answers "empty" before the undo and
    // is applied after it: not taken either.
    provider.answerChunk(again, { homogeneous: { state: 'full', proven: false } });
    applyAll(m);
    expect(marks).toEqual([`${a} full`]);
    dig();
    m.schedule(10);
    const [dug] = provider.take();
    expect(dug.id).toMatch(/#/);
    provider.answerChunk(dug, { homogeneous: { state: 'empty', proven: true } });
    undo();
    expect(provider.cancelledIds()).toEqual([job.id]); // answered already: nothing to cancel
    applyAll(m);
    expect(marks).toEqual([`${a} full`]);
  });

  it('the ledger: an answer of a job cancelled and started again under the same id goes to neither; priorities follow the offset', () => {
    const provider = new FakeProvider();
    const m = new PlanetStreaming<FakePiece>({ space, budgetBytes: 10_000 * KB, provider, onReady: () => {}, onEvicted: () => {}, onHomogeneous: () => {} });
    const [a, b] = keys(2);
    const ask = (ks: ChunkKey[]): void => m.onSelect(result({ requests: ks.map((key) => ({ key, priority: 5 })), requestCoarser: ks.map(() => []), wanted: ks }));
    ask([a, b]);
    m.schedule(10);
    const [first, other] = provider.take();
    expect([first.priority, other.priority]).toEqual([5, 5]);
    m.priorityOffset = -100;
    m.schedule(10); // running jobs take the new offset
    expect([first.priority, other.priority]).toEqual([-95, -95]);
    ask([b]); // a is stale: cancelled
    expect(first.cancelled).toBe(true);
    expect(m.inFlight).toBe(1);
    ask([a, b]);
    m.schedule(10);
    const [second] = provider.take();
    expect(second.id).toBe(first.id);
    expect(second.priority).toBe(-95);
    provider.answerChunk(first, KB); // the cancelled job's late answer
    expect(m.finishedCount).toBe(0);
    provider.answerChunk(second, 2 * KB);
    applyAll(m);
    expect(m.bytes).toBe(2 * KB);
    expect(m.runningCount).toBe(1); // b still runs
    m.clear();
    expect(other.cancelled).toBe(true);
  });
});
