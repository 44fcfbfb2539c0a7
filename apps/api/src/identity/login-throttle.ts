import { hashToken, RateLimitedError } from "@hookflow/domain";
import type { RedisKeys } from "@hookflow/queue";
import type { Redis } from "ioredis";

/**
 * Failed logins are counted in fixed windows per email and per client address. Past the limit,
 * every attempt (even with the right password) is answered 429 until the window ends.
 */
export const LOGIN_THROTTLE = {
  windowSeconds: 15 * 60,
  /** Guessing one account's password. */
  perEmail: 10,
  /** Trying many accounts from one address; higher, since a NAT or proxy can share one. */
  perAddress: 50,
} as const;

export interface LoginThrottleTarget {
  redis: Redis;
  keys: RedisKeys;
}

function subjects(keys: RedisKeys, email: string, address: string): [string, string] {
  // The email is hashed so keys carry no personal data and no odd characters.
  return [
    keys.loginAttempts(`email:${hashToken(email.toLowerCase()).slice(0, 32)}`),
    keys.loginAttempts(`addr:${address}`),
  ];
}

export async function assertLoginAllowed(
  target: LoginThrottleTarget,
  email: string,
  address: string,
): Promise<void> {
  const [emailKey, addressKey] = subjects(target.keys, email, address);
  const [byEmail, byAddress] = await target.redis.mget(emailKey, addressKey);
  const blocked: string[] = [];
  if (Number(byEmail ?? 0) >= LOGIN_THROTTLE.perEmail) blocked.push(emailKey);
  if (Number(byAddress ?? 0) >= LOGIN_THROTTLE.perAddress) blocked.push(addressKey);
  if (blocked.length === 0) return;
  const ttls = await Promise.all(blocked.map((key) => target.redis.ttl(key)));
  const retryAfter = Math.max(1, ...ttls);
  throw new RateLimitedError(retryAfter, "Too many failed login attempts; try again later");
}

export async function recordLoginFailure(
  target: LoginThrottleTarget,
  email: string,
  address: string,
): Promise<void> {
  const window = LOGIN_THROTTLE.windowSeconds;
  const multi = target.redis.multi();
  for (const key of subjects(target.keys, email, address)) {
    multi.incr(key);
    multi.expire(key, window, "NX");
  }
  await multi.exec();
}

/** A successful login forgives the account's failures (not the address's). */
export async function clearLoginFailures(
  target: LoginThrottleTarget,
  email: string,
  address: string,
): Promise<void> {
  const [emailKey] = subjects(target.keys, email, address);
  await target.redis.del(emailKey);
}
