/**
 * In-memory cache of ingress token lookups, with a TTL and a size bound. Invalidation messages
 * (Redis pub/sub) drop entries at once; a generation counter makes sure a lookup that was already
 * in flight when an invalidation arrived does not put the stale answer back. Concurrent lookups of
 * one token share one load. Unknown tokens are cached too (as `null`), so a flood of bad tokens
 * does not reach Postgres; a new token is never looked up before it exists (it is 40 random
 * characters), and rotations and deletes publish the webhook's id, which drops its tokens.
 */
export interface TokenCacheOptions<V extends { id: string }> {
  load: (token: string) => Promise<V | null>;
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

export interface TokenCache<V extends { id: string }> {
  get: (token: string) => Promise<V | null>;
  /** Drops every entry of a webhook (its current and former tokens). */
  invalidate: (webhookId: string) => void;
  clear: () => void;
  /** While false (invalidations may be missed), answers are not cached. */
  setCaching: (enabled: boolean) => void;
  size: () => number;
}

interface Entry<V> {
  value: V | null;
  expiresAt: number;
}

export function createTokenCache<V extends { id: string }>(
  options: TokenCacheOptions<V>,
): TokenCache<V> {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<V>>();
  const loading = new Map<string, Promise<V | null>>();
  let generation = 0;
  let caching = true;

  function store(token: string, value: V | null): void {
    entries.delete(token);
    while (entries.size >= options.maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done) break;
      entries.delete(oldest.value);
    }
    entries.set(token, { value, expiresAt: now() + options.ttlMs });
  }

  function drop(): void {
    generation += 1;
    loading.clear();
  }

  return {
    get: (token) => {
      const entry = entries.get(token);
      if (entry && entry.expiresAt > now()) return Promise.resolve(entry.value);
      if (entry) entries.delete(token);
      const inFlight = loading.get(token);
      if (inFlight) return inFlight;
      const startedAt = generation;
      const load = options.load(token).then(
        (value) => {
          if (loading.get(token) === load) loading.delete(token);
          if (caching && generation === startedAt) store(token, value);
          return value;
        },
        (error: unknown) => {
          if (loading.get(token) === load) loading.delete(token);
          throw error;
        },
      );
      loading.set(token, load);
      return load;
    },
    invalidate: (webhookId) => {
      drop();
      for (const [token, entry] of entries) {
        if (entry.value?.id === webhookId) entries.delete(token);
      }
    },
    clear: () => {
      drop();
      entries.clear();
    },
    setCaching: (enabled) => {
      caching = enabled;
      if (!enabled) {
        drop();
        entries.clear();
      }
    },
    size: () => entries.size,
  };
}
