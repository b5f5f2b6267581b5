/**
 * A worker's caches kept in a Map, least recently used first (the kept leaves, leafStore.ts; the
 * kept chunk samples, planetChunkJob.ts): recalling an entry counts a hit or a miss and moves the
 * entry last.
 */

/** `key`'s entry in `kept`, moved to the end (most recently used), or undefined; counted in `stats`. */
export function recallRecent<K, V>(kept: Map<K, V>, key: K, stats: { hits: number; misses: number }): V | undefined {
  const entry = kept.get(key);
  if (entry === undefined) {
    stats.misses++;
    return undefined;
  }
  stats.hits++;
  kept.delete(key);
  kept.set(key, entry);
  return entry;
}
