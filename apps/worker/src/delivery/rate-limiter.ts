import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { luaScript } from "../redis/lua-script.js";

/**
 * Sliding-window limiter over Redis sorted sets, shared by every worker. Both windows are checked
 * before either is charged, atomically, with Redis's own clock (workers' clocks may differ).
 * Returns 0 when the attempt may go now (and charges it), else how many ms to wait.
 *
 * KEYS: 1 = per-second window, 2 = per-minute window
 * ARGV: 1 = per-second limit (0 = none), 2 = per-minute limit (0 = none), 3 = unique member
 */
const SLIDING_WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limits = { tonumber(ARGV[1]), tonumber(ARGV[2]) }
local windows = { 1000, 60000 }
local wait = 0
for i = 1, 2 do
  if limits[i] > 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - windows[i])
    if redis.call('ZCARD', KEYS[i]) >= limits[i] then
      local idx = redis.call('ZCARD', KEYS[i]) - limits[i]
      local entry = redis.call('ZRANGE', KEYS[i], idx, idx, 'WITHSCORES')
      local w = tonumber(entry[2]) + windows[i] - now + 1
      if w > wait then wait = w end
    end
  end
end
if wait > 0 then return wait end
for i = 1, 2 do
  if limits[i] > 0 then
    redis.call('ZADD', KEYS[i], now, ARGV[3])
    redis.call('PEXPIRE', KEYS[i], windows[i] + 1000)
  end
end
return 0
`;

export interface RateLimiter {
  /** 0 = go now (the attempt is counted); otherwise the ms to wait before trying again. */
  acquire: (input: {
    webhookId: string;
    perSecond: number;
    perMinute: number;
    /** The attempt's event; its window entry is the id with a random suffix (a retry is new). */
    eventId: string;
  }) => Promise<number>;
}

export function createRateLimiter(options: {
  redis: Redis;
  keyOf: (scope: string) => string;
}): RateLimiter {
  const { redis, keyOf } = options;
  const slidingWindow = luaScript(redis, SLIDING_WINDOW);
  return {
    acquire: async ({ webhookId, perSecond, perMinute, eventId }) => {
      if (perSecond <= 0 && perMinute <= 0) return 0;
      const member = `${eventId}:${randomBytes(6).toString("hex")}`;
      const wait = await slidingWindow(
        [keyOf(`${webhookId}:s`), keyOf(`${webhookId}:m`)],
        [perSecond, perMinute, member],
      );
      return Number(wait);
    },
  };
}
