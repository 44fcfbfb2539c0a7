import {
  type DbHandle,
  deleteIngressEvents,
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
  /** How long an enqueue may wait for Redis before the batch is answered 503. */
  redisWaitMs: number;
}

/**
 * Flush of one group-commit batch: ONE multi-row INSERT, then ONE bulk enqueue. The batch
 * succeeds only when both do. When the insert worked and the enqueue did not, the rows are
 * deleted best-effort (the senders get 503 and retry); anything left pending is re-enqueued by
 * the worker's sweeper, so no event is ever lost or acknowledged without being durable.
 */
export async function storeEvents(
  deps: StoreEventsDeps,
  items: EventToStore[],
): Promise<StoreOutcome[]> {
  const rows = items.map((item) => item.row);
  let outcomes: IngressInsertOutcome[];
  try {
    outcomes = await insertIngressEventBatch(deps.db, rows);
  } catch (error) {
    deps.logger.error({ err: error, batch: rows.length }, "event insert failed");
    throw new UnavailableError("Event store unavailable", error);
  }

  const stored = items.filter((_, index) => outcomes[index] === "stored");
  const deliveries: DeliveryToEnqueue[] = stored
    .filter((item) => item.enqueue)
    .map((item) => deliveryJobOf(item.row));
  if (deliveries.length > 0) {
    try {
      await waitForRedis(deps.redis, deps.redisWaitMs);
      await withTimeout(enqueueDeliveries(deps.queues, deliveries), deps.redisWaitMs);
    } catch (error) {
      deps.logger.error({ err: error, batch: rows.length }, "enqueue failed");
      await deleteIngressEvents(
        deps.db.db,
        stored.map((item) => item.row.id),
      ).catch((cleanupError: unknown) =>
        deps.logger.warn({ err: cleanupError }, "could not remove events of a failed batch"),
      );
      throw new UnavailableError("Queue unavailable", error);
    }
  }
  await confirmStoredClaims(deps, stored);
  return outcomes.map((outcome) =>
    outcome === "stored"
      ? { ok: true }
      : { ok: false, error: new NotFoundError("Webhook not found for this ingress token") },
  );
}

/**
 * Dedup claims become repeat markers only now that their events are durable. A failure is logged,
 * not answered: the events are stored and queued; their pending claims run out, after which a
 * repeat is stored again (a duplicate, never a loss).
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
