import { hashToken, RateLimitedError, UnavailableError } from "@hookflow/domain";
import { luaScript, type RedisKeys } from "@hookflow/queue";
import type { Redis } from "ioredis";

/**
 * Login throttling. Every attempt is counted in Redis, atomically, before its password is
 * checked, so parallel guesses cannot slip past the count.
 *
 * - Per (account, client address): `pairFree` attempts go at once; the next one waits
 *   `backoffBaseMs` after the last, and each further wait doubles, at most `backoffMaxMs`. The pair is forgotten `pairMemoryMs` after its last attempt, and at once on
 *   a successful login. One address guessing one account is slowed, never anyone else.
 * - Per client address: `addressLimit` failed attempts (any accounts) per `addressWindowMs`;
 *   past it that address gets 429 until the window ends (spraying many accounts).
 * - Per account: past `accountCeiling` failed attempts from all addresses in
 *   `accountWindowMs`, a pair gets one attempt at once instead of `pairFree` (slows guessing
 *   from many addresses). The account itself is never locked: the owner's first attempt from an
 *   address that has not failed is always checked.
 */
export const LOGIN_THROTTLE: LoginThrottleLimits = {
  pairFree: 5,
  backoffBaseMs: 1000,
  backoffMaxMs: 15 * 60_000,
  pairMemoryMs: 24 * 3600_000,
  addressLimit: 100,
  addressWindowMs: 15 * 60_000,
  accountCeiling: 50,
  accountWindowMs: 3600_000,
};

export interface LoginThrottleLimits {
  pairFree: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  pairMemoryMs: number;
  addressLimit: number;
  addressWindowMs: number;
  accountCeiling: number;
  accountWindowMs: number;
}

/**
 * KEYS: 1 = pair (hash: n attempts, until ms), 2 = address window, 3 = account window.
 * ARGV: pairFree, backoffBaseMs, backoffMaxMs, pairMemoryMs, addressLimit, addressWindowMs,
 * accountCeiling, accountWindowMs.
 * Returns {1, n} when the attempt may be checked (and is counted), {0, wait ms} when not.
 */
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local free, base, maxWait, memory = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local addressLimit, addressWindow = tonumber(ARGV[5]), tonumber(ARGV[6])
local ceiling, accountWindow = tonumber(ARGV[7]), tonumber(ARGV[8])
local untilMs = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if untilMs > now then return { 0, untilMs - now } end
if tonumber(redis.call('GET', KEYS[2]) or '0') >= addressLimit then
  return { 0, math.max(redis.call('PTTL', KEYS[2]), 1000) }
end
if tonumber(redis.call('GET', KEYS[3]) or '0') >= ceiling then free = 1 end
local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
if n >= free then
  redis.call('HSET', KEYS[1], 'until', now + math.floor(math.min(base * 2 ^ (n - free), maxWait)))
end
redis.call('PEXPIRE', KEYS[1], memory)
local windows = { [2] = addressWindow, [3] = accountWindow }
for i = 2, 3 do
  redis.call('INCR', KEYS[i])
  if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], windows[i]) end
end
return { 1, n }
`;

/** A success was not a failure: forget the pair, give back the two window counts. */
const FORGIVE = `
redis.call('DEL', KEYS[1])
for i = 2, 3 do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 1
`;

export interface LoginThrottle {
  /** Counts the attempt; 429 (not counted) while the pair waits or the address is over. */
  admit: (email: string, address: string) => Promise<void>;
  /** After a successful login. */
  forgive: (email: string, address: string) => Promise<void>;
}

function subjects(keys: RedisKeys, email: string, address: string): string[] {
  // The email is hashed so keys carry no personal data and no odd characters.
  const account = hashToken(email.toLowerCase()).slice(0, 32);
  return [
    keys.loginAttempts(`pair:${account}:${address}`),
    keys.loginAttempts(`addr:${address}`),
    keys.loginAttempts(`acct:${account}`),
  ];
}

async function reach<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // Without its counts the throttle cannot protect accounts: refuse rather than guess.
    throw new UnavailableError("Login is unavailable right now; try again shortly", error);
  }
}

export function createLoginThrottle(options: {
  redis: Redis;
  keys: RedisKeys;
  /** The documented LOGIN_THROTTLE unless given (tests shrink them). */
  limits?: LoginThrottleLimits;
}): LoginThrottle {
  const admitScript = luaScript(options.redis, ADMIT);
  const forgiveScript = luaScript(options.redis, FORGIVE);
  const t = options.limits ?? LOGIN_THROTTLE;
  const limits = [
    t.pairFree,
    t.backoffBaseMs,
    t.backoffMaxMs,
    t.pairMemoryMs,
    t.addressLimit,
    t.addressWindowMs,
    t.accountCeiling,
    t.accountWindowMs,
  ];
  return {
    admit: async (email, address) => {
      const keys = subjects(options.keys, email, address);
      const [admitted, value] = (await reach(() => admitScript(keys, limits))) as [number, number];
      if (Number(admitted) === 1) return;
      const retryAfter = Math.max(1, Math.ceil(Number(value) / 1000));
      throw new RateLimitedError(retryAfter, "Too many failed login attempts; try again later");
    },
    forgive: async (email, address) => {
      const keys = subjects(options.keys, email, address);
      await reach(() => forgiveScript(keys, []));
    },
  };
}
