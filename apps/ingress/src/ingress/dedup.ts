import { createHash } from "node:crypto";
import type { RedisKeys } from "@hookflow/queue";
import type { Redis } from "ioredis";

/** Headers that name a delivery, in order of preference (docs/decisions.md, "Ingress"). */
const DEDUP_HEADERS = ["idempotency-key", "webhook-id", "x-github-delivery"] as const;

/** Longer keys are hashed, so a sender cannot make Redis keys of arbitrary size. */
const MAX_KEY_LENGTH = 200;

/** A claim whose event is not stored yet holds `pending:<eventId>`; a stored one `<eventId>`. */
const PENDING = "pending:";

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

export type DedupClaim =
  | { claimed: true }
  /** The key's event is stored: a repeat. */
  | { claimed: false; originalEventId: string }
  /** Another request holds the key and has not stored its event yet (or crashed doing so). */
  | { claimed: false; pendingEventId: string };

export interface DedupTarget {
  redis: Redis;
  keys: RedisKeys;
  webhookId: string;
  key: string;
}

/**
 * Claims `key` for `eventId` with one atomic `SET NX`, so two replicas racing on the same
 * delivery agree on one winner. The claim is only pending (`pendingMs`) until the event is
 * stored and `confirmDedupKeys` makes it a repeat marker for the dedup window: a crash between
 * claim and store leaves a claim that runs out, never one that names an event that does not
 * exist.
 */
async function claimDedupKey(
  options: DedupTarget & { eventId: string; pendingMs: number },
): Promise<DedupClaim> {
  const redisKey = options.keys.dedup(options.webhookId, options.key);
  const pendingMs = Math.max(1, Math.floor(options.pendingMs));
  // Two rounds: the key may expire between a failed SET and the GET.
  for (let round = 0; round < 2; round++) {
    const value = `${PENDING}${options.eventId}`;
    const set = await options.redis.set(redisKey, value, "PX", pendingMs, "NX");
    if (set === "OK") return { claimed: true };
    const held = await options.redis.get(redisKey);
    if (held?.startsWith(PENDING)) return { claimed: false, pendingEventId: held.slice(8) };
    if (held) return { claimed: false, originalEventId: held };
  }
  return { claimed: true };
}

/** Waits between looks at a pending claim: short first (a batch stores in milliseconds). */
const PENDING_BACKOFF_MS = [5, 10, 20, 40, 80, 160, 320, 500, 500, 500];

/**
 * `claimDedupKey`, waiting out a claim another request holds while that request stores its event
 * (concurrent duplicates then get the usual repeat answer): up to about 2 s, after which the
 * pending claim is returned as it is.
 */
export async function claimDedupKeyWaiting(
  options: DedupTarget & {
    eventId: string;
    pendingMs: number;
    sleep?: (ms: number) => Promise<void>;
  },
): Promise<DedupClaim> {
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  let claim = await claimDedupKey(options);
  for (const waitMs of PENDING_BACKOFF_MS) {
    if (!("pendingEventId" in claim)) return claim;
    await sleep(waitMs);
    claim = await claimDedupKey(options);
  }
  return claim;
}

/**
 * Turns the pending claims of stored events into repeat markers for their dedup window, one
 * script call for a whole batch. A claim that ran out meanwhile is set again unless another
 * request holds the key by now.
 */
const CONFIRM = `
for i, key in ipairs(KEYS) do
  local eventId = ARGV[i * 2 - 1]
  local held = redis.call('GET', key)
  if held == false or held == 'pending:' .. eventId then
    redis.call('SET', key, eventId, 'EX', ARGV[i * 2])
  end
end
return #KEYS
`;

export async function confirmDedupKeys(
  redis: Redis,
  keys: RedisKeys,
  claims: ReadonlyArray<{ webhookId: string; key: string; eventId: string; windowSeconds: number }>,
): Promise<void> {
  if (claims.length === 0) return;
  const args: Array<string | number> = [];
  for (const claim of claims) {
    args.push(claim.eventId, Math.max(1, Math.floor(claim.windowSeconds)));
  }
  await redis.eval(
    CONFIRM,
    claims.length,
    ...claims.map((claim) => keys.dedup(claim.webhookId, claim.key)),
    ...args,
  );
}

/** Releases a claim whose event could not be stored, so the sender's retry is accepted. */
export async function releaseDedupKey(options: DedupTarget & { eventId: string }): Promise<void> {
  const redisKey = options.keys.dedup(options.webhookId, options.key);
  // Delete only our own claim.
  await options.redis.eval(
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
    1,
    redisKey,
    `${PENDING}${options.eventId}`,
  );
}
