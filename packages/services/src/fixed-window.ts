import { luaScript } from "@hookflow/queue";
import type { Redis } from "ioredis";

/**
 * Counts one request in a fixed window and answers the count and the window's remaining time,
 * in one round trip, atomically across api replicas. The window opens with its first request and
 * lives in Redis (its clock, not the replicas').
 *
 * KEYS: 1 = the window. ARGV: 1 = window length in ms.
 */
const FIXED_WINDOW = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;

interface WindowCount {
  /** Requests counted in this window, this one included. */
  count: number;
  /** Milliseconds until the window closes. */
  resetMs: number;
}

export type FixedWindow = (key: string, windowMs: number) => Promise<WindowCount>;

export function createFixedWindow(redis: Redis): FixedWindow {
  const script = luaScript(redis, FIXED_WINDOW);
  return async (key, windowMs) => {
    const [count, resetMs] = (await script([key], [windowMs])) as [number, number];
    return { count: Number(count), resetMs: Number(resetMs) };
  };
}
