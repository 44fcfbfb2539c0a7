import { createHash } from "node:crypto";
import type { RedisKeys } from "@hookflow/queue";
import type { Redis } from "ioredis";

/** Why a stream was refused a slot. */
export type SlotRefusal = "token" | "process";

type SlotGrant = { ok: true; release: () => void } | { ok: false; refused: SlotRefusal };

export interface StreamSlots {
  /**
   * Takes one slot of this process and one of the token (across every stream process, in
   * Redis). `release` gives both back; it may be called more than once.
   */
  acquire: (token: string) => Promise<SlotGrant>;
  /** Slots this process holds. */
  held: () => number;
}

export interface StreamSlotsOptions {
  redis: Redis;
  keys: RedisKeys;
  maxPerToken: number;
  maxPerProcess: number;
  /**
   * How long a token's counter outlives its last increment: a token is valid at most this long
   * after it was issued plus the longest stream. A process that dies with streams open leaves its
   * count behind until then.
   */
  counterTtlMs: number;
  onError: (error: unknown) => void;
}

/** Counts one more open stream of a token unless it has `limit`; 0 when refused. */
const TAKE = `
local open = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if open > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return 0
end
return open
`;

const GIVE_BACK = `
local open = redis.call('DECR', KEYS[1])
if open <= 0 then redis.call('DEL', KEYS[1]) end
return open
`;

/**
 * Bounded streams: stream tokens come to anyone who posts to a public ingress URL, so one token
 * may hold `maxPerToken` streams open at once (whichever stream processes serve them) and one
 * process `maxPerProcess`. The token is stateless, so its count lives in Redis under a hash of
 * the token; the process count is in memory.
 */
export function createStreamSlots(options: StreamSlotsOptions): StreamSlots {
  let held = 0;
  return {
    held: () => held,
    acquire: async (token) => {
      if (held >= options.maxPerProcess) return { ok: false, refused: "process" };
      held += 1;
      const key = options.keys.streamSlots(
        createHash("sha256").update(token).digest("base64url").slice(0, 32),
      );
      let taken: unknown;
      try {
        taken = await options.redis.eval(
          TAKE,
          1,
          key,
          options.maxPerToken,
          Math.ceil(options.counterTtlMs),
        );
      } catch (error) {
        held -= 1;
        throw error;
      }
      if (taken === 0) {
        held -= 1;
        return { ok: false, refused: "token" };
      }
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          held -= 1;
          options.redis.eval(GIVE_BACK, 1, key).catch(options.onError);
        },
      };
    },
  };
}
