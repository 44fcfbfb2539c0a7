import type { RateLimitPort } from "@hookflow/pipeline";
import type { RedisKeys } from "@hookflow/queue";
import type { Redis } from "ioredis";
import { luaScript } from "../../redis/lua-script.js";

/**
 * A rate-limiter node's sliding window: a sorted set of arrivals scored by Redis's own clock,
 * shared by every worker. An arrival already in the window (the same member: a retried job) is
 * allowed without counting again. Returns 0 when allowed (and counted), else the ms until the
 * oldest arrival that holds the limit leaves the window.
 *
 * KEYS: 1 = window. ARGV: 1 = member, 2 = max events, 3 = window ms.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[3])
local max = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
local count = redis.call('ZCARD', KEYS[1])
if count < max then
  redis.call('ZADD', KEYS[1], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[1], window + 1000)
  return 0
end
local entry = redis.call('ZRANGE', KEYS[1], count - max, count - max, 'WITHSCORES')
return math.max(1, tonumber(entry[2]) + window - now + 1)
`;

export function createRedisNodeRateLimit(options: {
  redis: Redis;
  keys: RedisKeys;
}): RateLimitPort {
  const acquire = luaScript(options.redis, ACQUIRE);
  return {
    acquire: async ({ nodeId, member, maxEvents, windowMs }) => {
      const wait = Number(
        await acquire([options.keys.rateWindow(`node:${nodeId}`)], [member, maxEvents, windowMs]),
      );
      return wait === 0 ? { allowed: true } : { allowed: false, retryAfterMs: wait };
    },
  };
}
