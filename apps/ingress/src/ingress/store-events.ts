import {
  type DbHandle,
  type IngressEventRow,
  type IngressInsertOutcome,
  insertIngressEventBatch,
} from "@hookflow/db";
import { type AppError, NotFoundError, UnavailableError } from "@hookflow/domain";
import type { Logger } from "@hookflow/observability";
import {
  type DeliveryQueues,
  type DeliveryToEnqueue,
  deliveryJobOf,
  enqueueDeliveries,
  type RedisKeys,
} from "@hookflow/queue";
import type { Redis } from "ioredis";
import { confirmDedupKeys } from "./dedup.js";

/** One event waiting for its batch: stored always, enqueued when the webhook is active. */
export interface EventToStore {
  row: IngressEventRow;
  enqueue: boolean;
  /** The body's UTF-8 size: what the event weighs in its batch (BATCH_MAX_BYTES). */
  bodyBytes: number;
  /** With `row.dedupKey`: the claim is confirmed for this window once the event is stored. */
  dedupWindowSeconds: number;
}

/** Per-item result of a batch whose INSERT went through. */
export type StoreOutcome = { ok: true } | { ok: false; error: AppError };

export interface StoreEventsDeps {
  db: DbHandle;
  redis: Redis;
  keys: RedisKeys;
  queues: DeliveryQueues;
  logger: Logger;
  /** How long a batch waits for Redis before it is answered 503, and an enqueue may take. */
  redisWaitMs: number;
  /** Counts events whose enqueue failed after their store (the sweeper queues them). */
  onEnqueueFailed: (events: number) => void;
}

/**
 * Flush of one group-commit batch (docs/decisions.md, "Durable, then queued"): ONE multi-row
 * INSERT, whose commit is what the senders wait for (`answer` gives them their results at once);
 * then ONE bulk enqueue and the batch's dedup confirmations, before the batch frees its slot.
 * Redis must be reachable before the insert (else 503 and nothing is stored); an enqueue that
 * fails after the commit leaves its events pending in Postgres, where the worker's sweeper queues
 * them, so no event is lost or acknowledged before it is durable.
 */
export async function storeEvents(
  deps: StoreEventsDeps,
  items: EventToStore[],
  answer: (results: StoreOutcome[]) => void,
): Promise<StoreOutcome[]> {
  if (items.some((item) => item.enqueue)) {
    try {
      await waitForRedis(deps.redis, deps.redisWaitMs);
    } catch (error) {
      deps.logger.error({ err: error, batch: items.length }, "queue unreachable; batch refused");
      throw new UnavailableError("Queue unavailable", error);
    }
  }
  const rows = items.map((item) => item.row);
  let outcomes: IngressInsertOutcome[];
  try {
    outcomes = await insertIngressEventBatch(deps.db, rows);
  } catch (error) {
    deps.logger.error({ err: error, batch: rows.length }, "event insert failed");
    throw new UnavailableError("Event store unavailable", error);
  }
  const results: StoreOutcome[] = outcomes.map((outcome) =>
    outcome === "stored"
      ? { ok: true }
      : { ok: false, error: new NotFoundError("Webhook not found for this ingress token") },
  );
  answer(results);
  const stored = items.filter((_, index) => outcomes[index] === "stored");
  if (stored.length > 0) await followUp(deps, stored);
  return results;
}

/**
 * The stored events' enqueue and their dedup confirmations, side by side (each is one Redis
 * call). A failed enqueue is logged and counted; its events are durable and pending, and the
 * sweeper queues them once their grace has passed.
 */
async function followUp(deps: StoreEventsDeps, stored: EventToStore[]): Promise<void> {
  const deliveries: DeliveryToEnqueue[] = stored
    .filter((item) => item.enqueue)
    .map((item) => deliveryJobOf(item.row));
  const enqueue = async () => {
    if (deliveries.length === 0) return;
    try {
      await withTimeout(enqueueDeliveries(deps.queues, deliveries), deps.redisWaitMs);
    } catch (error) {
      deps.onEnqueueFailed(deliveries.length);
      deps.logger.error(
        { err: error, events: deliveries.length },
        "enqueue failed after the store; the sweeper queues these events",
      );
    }
  };
  await Promise.all([enqueue(), confirmStoredClaims(deps, stored)]);
}

/**
 * Dedup claims become repeat markers only once their events are durable. A failure is only
 * logged (the senders have their 202s, and the events are stored): their pending claims run out,
 * after which a repeat is stored again (a duplicate, never a loss).
 */
async function confirmStoredClaims(deps: StoreEventsDeps, stored: EventToStore[]): Promise<void> {
  const claims = [];
  for (const item of stored) {
    if (item.row.dedupKey === null) continue;
    claims.push({
      webhookId: item.row.webhookId,
      key: item.row.dedupKey,
      eventId: item.row.id,
      windowSeconds: item.dedupWindowSeconds,
    });
  }
  try {
    await confirmDedupKeys(deps.redis, deps.keys, claims);
  } catch (error) {
    deps.logger.warn({ err: error, claims: claims.length }, "could not confirm dedup claims");
  }
}

/** Resolves once `redis` is connected; rejects after `ms` (BullMQ would wait forever). */
function waitForRedis(redis: Redis, ms: number): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off("ready", onReady);
      reject(new Error(`redis not ready after ${ms} ms (status ${redis.status})`));
    }, ms);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once("ready", onReady);
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
