import { createHash } from "node:crypto";
import type { RedisKeys } from "@hookflow/queue";
import type { Redis } from "ioredis";

/** Headers that name a delivery, in order of preference (decisions.md section 6). */
const DEDUP_HEADERS = ["idempotency-key", "webhook-id", "x-github-delivery"] as const;

/** Longer keys are hashed, so a sender cannot make Redis keys of arbitrary size. */
const MAX_KEY_LENGTH = 200;

export function dedupKeyOf(
  header: (name: string) => string | undefined,
  rawBody: Uint8Array,
): string {
  for (const name of DEDUP_HEADERS) {
    const value = header(name)?.trim();
    if (value) {
      return value.length <= MAX_KEY_LENGTH
        ? value
        : `sha256:${createHash("sha256").update(value).digest("hex")}`;
    }
  }
  return `body-sha256:${createHash("sha256").update(rawBody).digest("hex")}`;
}

export type DedupClaim = { claimed: true } | { claimed: false; originalEventId: string };

/**
 * Claims `key` for `eventId` for `windowSeconds` with one atomic `SET NX EX`, so two replicas
 * racing on the same delivery agree on one winner. A loser learns the winner's event id.
 */
export async function claimDedupKey(options: {
  redis: Redis;
  keys: RedisKeys;
  webhookId: string;
  key: string;
  eventId: string;
  windowSeconds: number;
}): Promise<DedupClaim> {
  const redisKey = options.keys.dedup(options.webhookId, options.key);
  const window = Math.max(1, Math.floor(options.windowSeconds));
  // Two rounds: the key may expire between a failed SET and the GET.
  for (let round = 0; round < 2; round++) {
    const set = await options.redis.set(redisKey, options.eventId, "EX", window, "NX");
    if (set === "OK") return { claimed: true };
    const original = await options.redis.get(redisKey);
    if (original) return { claimed: false, originalEventId: original };
  }
  return { claimed: true };
}

/** Releases a claim whose event could not be stored, so the sender's retry is accepted. */
export async function releaseDedupKey(options: {
  redis: Redis;
  keys: RedisKeys;
  webhookId: string;
  key: string;
  eventId: string;
}): Promise<void> {
  const redisKey = options.keys.dedup(options.webhookId, options.key);
  // Delete only our own claim.
  await options.redis.eval(
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
    1,
    redisKey,
    options.eventId,
  );
}
