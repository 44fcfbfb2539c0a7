import type { RedisKeys } from "@hookflow/queue";
import type { Redis } from "ioredis";

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Per-token ingress limit (INGRESS_RATE_LIMIT_PER_SECOND): a fixed one-second window counted in
 * Redis, shared by every ingress replica. The window is keyed by webhook id (one token per
 * webhook), so the raw token never appears in Redis.
 */
export async function checkIngressRate(options: {
  redis: Redis;
  keys: RedisKeys;
  webhookId: string;
  limitPerSecond: number;
  nowMs: number;
}): Promise<RateDecision> {
  if (options.limitPerSecond <= 0) return { allowed: true };
  const second = Math.floor(options.nowMs / 1000);
  const key = options.keys.rateWindow(`ingress:${options.webhookId}:${second}`);
  const results = await options.redis.multi().incr(key).expire(key, 2).exec();
  const [incr] = results ?? [];
  if (!incr || incr[0]) throw incr?.[0] ?? new Error("rate limit transaction failed");
  const count = Number(incr[1]);
  return count <= options.limitPerSecond
    ? { allowed: true }
    : { allowed: false, retryAfterSeconds: 1 };
}
