import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { luaScript } from "../redis/lua-script.js";

/** Shortens the lease only while we still hold it. */
const SHORTEN_IF_OWNER = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`;

export interface RedisLease {
  /** True when this process now holds the lease for `ttlMs`. */
  tryAcquire: (ttlMs: number) => Promise<boolean>;
  /** Keeps the lease (so nobody else runs) for `ttlMs` more, only if still ours. */
  holdFor: (ttlMs: number) => Promise<void>;
}

/**
 * A lease with TTL shared by all workers: at most one holder at a time, and a holder that dies
 * loses it when the TTL runs out.
 */
export function createRedisLease(redis: Redis, key: string): RedisLease {
  const token = randomUUID();
  const shortenIfOwner = luaScript(redis, SHORTEN_IF_OWNER);
  return {
    tryAcquire: async (ttlMs) =>
      (await redis.set(key, token, "PX", Math.max(1, Math.round(ttlMs)), "NX")) === "OK",
    holdFor: async (ttlMs) => {
      await shortenIfOwner([key], [token, Math.max(1, Math.round(ttlMs))]);
    },
  };
}
