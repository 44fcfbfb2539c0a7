import type { ChangeFeed } from "@hookflow/queue";
/**
 * A keyed in-process cache of loads, dropped by change messages. Concurrent misses share one
 * load; a load that races a drop of its key (or of everything) is served to its callers but not
 * kept; a failed load is not kept. The TTL only bounds staleness if a change message is ever
 * missed.
 */
export interface InvalidatingCache<V> {
  get: (key: string) => Promise<V>;
  /** Drops one key, or every key when none is given. */
  drop: (key?: string) => void;
}

interface Entry<V> {
  value: Promise<V>;
  loadedAt: number;
}

export function createInvalidatingCache<V>(options: {
  load: (key: string) => Promise<V>;
  ttlMs: number;
  /** Whether a loaded value may be kept (default: always). */
  keep?: (value: V) => boolean;
  now?: () => number;
}): InvalidatingCache<V> {
  const now = options.now ?? Date.now;
  const keep = options.keep ?? (() => true);
  const entries = new Map<string, Entry<V>>();

  return {
    get: (key) => {
      const at = now();
      const hit = entries.get(key);
      if (hit && at - hit.loadedAt < options.ttlMs) return hit.value;
      const value = options.load(key);
      const entry = { value, loadedAt: at };
      entries.set(key, entry);
      // A drop removes the entry, so a load that raced it is served to its callers but is no
      // longer in the map: only a failed load, or one that may not be kept, is removed here.
      const forget = () => {
        if (entries.get(key) === entry) entries.delete(key);
      };
      value.then((loaded) => {
        if (!keep(loaded)) forget();
      }, forget);
      return value;
    },
    drop: (key) => {
      if (key === undefined) entries.clear();
      else entries.delete(key);
    },
  };
}

/**
 * Pub/sub keeps nothing for a subscriber that is away: a cache fed by `feed` drops everything
 * when the subscriber disconnects, and again once the channels are subscribed anew (what was
 * loaded in between may have missed a change).
 */
export function dropOnMissedChanges(
  feed: ChangeFeed,
  cache: Pick<InvalidatingCache<unknown>, "drop">,
): void {
  feed.onUnsubscribed(() => cache.drop());
  feed.onResubscribe(() => cache.drop());
}
