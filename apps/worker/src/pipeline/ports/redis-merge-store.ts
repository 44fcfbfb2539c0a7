import type { MergeAnswer, MergePort } from "@hookflow/pipeline";
import type { RedisKeys } from "@hookflow/queue";
import type { Redis } from "ioredis";
import { luaScript } from "../../redis/lua-script.js";

/**
 * The merge rules of @hookflow/pipeline's `arriveAtMerge`, atomically in Redis, so two workers
 * finishing branches of one event at once still merge once. One hash per event, node and run:
 * `n` arrivals, `b:<branch>` its arrival index, `p:<index>` its payload, `done` the branch that
 * completed (or, in first mode, opened) the merge, `expired` once the wait timed out.
 *
 * KEYS: 1 = hash. ARGV: 1 = branch, 2 = mode, 3 = expected count, 4 = payload, 5 = ttl ms.
 */
const ARRIVE = `
local key = KEYS[1]
local branch = ARGV[1]
local function answer()
  if ARGV[2] == 'first' then return {'first'} end
  local n = tonumber(redis.call('HGET', key, 'n') or '0')
  local out = {'complete'}
  for i = 1, n do out[#out + 1] = redis.call('HGET', key, 'p:' .. i) end
  return out
end
local done = redis.call('HGET', key, 'done')
if done == branch then return answer() end
if done or redis.call('HEXISTS', key, 'expired') == 1 then return {'late'} end
if redis.call('HEXISTS', key, 'b:' .. branch) == 0 then
  local n = redis.call('HINCRBY', key, 'n', 1)
  redis.call('HSET', key, 'b:' .. branch, n, 'p:' .. n, ARGV[4])
end
redis.call('PEXPIRE', key, ARGV[5])
local n = tonumber(redis.call('HGET', key, 'n'))
if ARGV[2] == 'first' or n >= tonumber(ARGV[3]) then
  redis.call('HSET', key, 'done', branch)
  return answer()
end
return {'waiting', tostring(n)}
`;

/** KEYS: 1 = hash. ARGV: 1 = ttl ms. Returns 1 when it expired the merge now. */
const EXPIRE = `
if redis.call('HEXISTS', KEYS[1], 'done') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'expired', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`;

export function createRedisMergeStore(options: {
  redis: Redis;
  keys: RedisKeys;
  /** How long a merge's arrivals are kept (its timeout plus a margin). */
  ttlMs: number;
}): MergePort {
  const { redis, keys, ttlMs } = options;
  const arrive = luaScript(redis, ARRIVE);
  const expire = luaScript(redis, EXPIRE);
  const keyOf = (k: { runId: string; eventId: string; nodeId: string }) =>
    keys.mergeArrivals(k.eventId, `${k.nodeId}:${k.runId}`);
  return {
    arrive: async (arrival): Promise<MergeAnswer> => {
      const reply = (await arrive(
        [keyOf(arrival)],
        [arrival.branchId, arrival.mode, arrival.expectedBranchCount, arrival.payload, ttlMs],
      )) as string[];
      switch (reply[0]) {
        case "waiting":
          return { kind: "waiting", arrived: Number(reply[1]) };
        case "complete":
          return { kind: "complete", payloads: reply.slice(1) };
        case "first":
          return { kind: "first" };
        default:
          return { kind: "late" };
      }
    },
    expire: async (key) => Number(await expire([keyOf(key)], [ttlMs])) === 1,
  };
}
