import type { GpuCollect } from '../../../src/gpu/GpuFieldSampler';

/**
 * `?gpuCollect=poll|spin|sync` on the bench page: how the GPU sampling worker finds its finished
 * batches (GpuFieldSamplerOptions.collect), so one page load on one machine can compare them.
 * Absent: the app's default.
 */
export function gpuCollectParam(): { collect?: GpuCollect } {
  const v = new URLSearchParams(location.search).get('gpuCollect');
  if (v === null) return {};
  if (v === 'poll' || v === 'spin' || v === 'sync') return { collect: v };
  throw new Error(`?gpuCollect= must be poll, spin or sync, not ${JSON.stringify(v)}`);
}

/** ` (collect: …)` for a row's notes when `?gpuCollect=` chose a mode, else ''. */
export function gpuCollectNote(): string {
  const { collect } = gpuCollectParam();
  return collect ? ` (collect: ${collect})` : '';
}
