import type { EventEmitter } from "node:events";
import type { HookflowConfig } from "@hookflow/config";
import { createDb, createGroupCommit, type DbHandle, type GroupCommit } from "@hookflow/db";
import { createKeyRing, type KeyRing } from "@hookflow/domain";
import {
  createLogger,
  createMetrics,
  getTracer,
  type Logger,
  type Metrics,
} from "@hookflow/observability";
import {
  closeDeliveryQueues,
  createDeliveryQueues,
  type DeliveryQueues,
  type RedisKeys,
  redisKeys,
} from "@hookflow/queue";
import { Redis } from "ioredis";
import { type AcceptingWebhook, findAcceptingWebhook } from "./ingress/find-accepting-webhook.js";
import { limitHeapGrowth } from "./ingress/heap-growth.js";
import { createIngressMetrics, type IngressMetrics } from "./ingress/ingress-metrics.js";
import {
  type EventToStore,
  type StoreEventsDeps,
  type StoreOutcome,
  storeEvents,
} from "./ingress/store-events.js";
import { createTokenCache, type TokenCache } from "./ingress/token-cache.js";
import { followWebhookChanges, type WebhookChangeFeed } from "./ingress/webhook-changes.js";
import { createSyncWaiter, type SyncWaiter } from "./sync/sync-waiter.js";

/**
 * Group commit (docs/decisions.md, "Ingress"): a batch closes at 200 events or at the end of the
 * event-loop turn its first event arrived in, and waits for a free slot when both writes are in
 * flight. A timer window (3 ms before) only added latency: under load the busy slots make the
 * batches, idle there is nothing to wait for.
 */
const BATCH_MAX_ITEMS = 200;
const BATCH_MAX_WAIT_MS = 0;
/** Bodies of one batch are capped too, so one INSERT stays a sane size. */
const BATCH_MAX_BYTES = 8 * 1024 * 1024;
/** Batches being written at once; more waiting requests make the next batch larger instead. */
const BATCH_MAX_IN_FLIGHT = 2;
const TOKEN_CACHE_TTL_MS = 30_000;
const TOKEN_CACHE_MAX_ENTRIES = 10_000;
/**
 * How long a dedup claim stays pending while its event is stored (a batch takes milliseconds; a
 * crash leaves it to run out, and repeats get 409 until then). Scaled by HOOKFLOW_DELAY_SCALE,
 * never under 2 s.
 */
const DEDUP_PENDING_MS = 30_000;
const REDIS_WAIT_MS = 2_000;

export interface IngressServices {
  config: HookflowConfig;
  db: DbHandle;
  redis: Redis;
  keys: RedisKeys;
  queues: DeliveryQueues;
  logger: Logger;
  metrics: Metrics;
  ingressMetrics: IngressMetrics;
  tracer: ReturnType<typeof getTracer>;
  /** Opens the incoming signature secrets; hashes tokens for lookup. */
  keyRing: KeyRing;
  tokens: TokenCache<AcceptingWebhook>;
  batcher: GroupCommit<EventToStore, StoreOutcome>;
  /** Emits `webhook-changed` with the parsed message after the cache dropped its entries. */
  changes: EventEmitter;
  /** Resolves once the invalidation channel is subscribed (until then nothing is cached). */
  subscribed: () => Promise<void>;
  /** Sync response mode: waits for an event's pipeline (one steps subscription, opened lazily). */
  sync: SyncWaiter;
  dedupPendingMs: number;
  now: () => number;
  close: () => Promise<void>;
}

export interface BuildIngressServicesOptions {
  config: HookflowConfig;
  logger?: Logger;
  metrics?: Metrics;
  /** How long a sync-mode request waits for its pipeline; default 120 s (tests shorten it). */
  syncWaitMs?: number;
}

/** Composition root of the ingress: builds every long-lived part once. */
export function buildIngressServices(options: BuildIngressServicesOptions): IngressServices {
  const { config } = options;
  limitHeapGrowth();
  const logger = options.logger ?? createLogger({ level: config.logLevel, role: "ingress" });
  const metrics = options.metrics ?? createMetrics({ role: "ingress" });
  const ingressMetrics = createIngressMetrics(metrics);
  const keys = redisKeys(config.redisPrefix);
  const db = createDb({
    url: config.databaseUrl,
    max: config.databasePoolSize,
    applicationName: "hookflow-ingress",
  });
  const redis = connectCommandRedis(config.redisUrl, logger);
  const queues = createLoggedDeliveryQueues(redis, keys, logger);
  const keyRing = createKeyRing(config.encryptionKeys);
  const tokens = createWebhookTokenCache(db, keyRing);
  const feed = followWebhookChanges({
    redisUrl: config.redisUrl,
    channel: keys.webhookChangedChannel,
    tokens,
    logger,
  });
  const batcher = createEventBatcher({ db, redis, keys, queues, logger, ingressMetrics });
  const sync = createSyncWaiter({
    redisUrl: config.redisUrl,
    commandRedis: redis,
    keys,
    logger,
    ...(options.syncWaitMs === undefined ? {} : { waitMs: options.syncWaitMs }),
  });

  return {
    config,
    db,
    redis,
    keys,
    queues,
    logger,
    metrics,
    ingressMetrics,
    tracer: getTracer("ingress"),
    keyRing,
    tokens,
    batcher,
    changes: feed.changes,
    subscribed: () => feed.subscribed,
    sync,
    dedupPendingMs: Math.max(2_000, DEDUP_PENDING_MS * config.delayScale),
    now: () => Date.now(),
    close: () => closeIngressServices({ batcher, sync, feed, queues, redis, db }),
  };
}

function connectCommandRedis(redisUrl: string, logger: Logger): Redis {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on("error", (error) => logger.warn({ err: error }, "redis error"));
  return redis;
}

function createLoggedDeliveryQueues(redis: Redis, keys: RedisKeys, logger: Logger): DeliveryQueues {
  const queues = createDeliveryQueues({ connection: redis, prefix: keys.bullPrefix });
  for (const queue of queues.values()) {
    queue.on("error", (error) => logger.warn({ err: error }, "queue error"));
  }
  return queues;
}

/** Token lookups, cached once the change feed is subscribed (`followWebhookChanges`). */
function createWebhookTokenCache(db: DbHandle, keyRing: KeyRing): TokenCache<AcceptingWebhook> {
  return createTokenCache<AcceptingWebhook>({
    load: (token) => findAcceptingWebhook({ db: db.db, keyRing }, token),
    ttlMs: TOKEN_CACHE_TTL_MS,
    maxEntries: TOKEN_CACHE_MAX_ENTRIES,
  });
}

interface EventBatcherDeps {
  db: DbHandle;
  redis: Redis;
  keys: RedisKeys;
  queues: DeliveryQueues;
  logger: Logger;
  ingressMetrics: IngressMetrics;
}

/** The group commit every accepted event goes through (see the BATCH_ constants above). */
function createEventBatcher(deps: EventBatcherDeps): GroupCommit<EventToStore, StoreOutcome> {
  const { ingressMetrics } = deps;
  const storeDeps: StoreEventsDeps = {
    db: deps.db,
    redis: deps.redis,
    keys: deps.keys,
    queues: deps.queues,
    logger: deps.logger,
    redisWaitMs: REDIS_WAIT_MS,
    onEnqueueFailed: (events: number) => ingressMetrics.enqueueFailed.inc(events),
  };
  return createGroupCommit<EventToStore, StoreOutcome>({
    maxItems: BATCH_MAX_ITEMS,
    maxWaitMs: BATCH_MAX_WAIT_MS,
    weigh: (item) => item.bodyBytes,
    maxWeight: BATCH_MAX_BYTES,
    maxInFlight: BATCH_MAX_IN_FLIGHT,
    flush: (items, answer) => storeEvents(storeDeps, items, answer),
    onFlush: ({ size, ok }) =>
      ingressMetrics.batchSize.observe({ outcome: ok ? "stored" : "failed" }, size),
  });
}

interface ClosableParts {
  batcher: GroupCommit<EventToStore, StoreOutcome>;
  sync: SyncWaiter;
  feed: WebhookChangeFeed;
  queues: DeliveryQueues;
  redis: Redis;
  db: DbHandle;
}

/** Writes out the batches still open before it drops the connections they need. */
async function closeIngressServices(parts: ClosableParts): Promise<void> {
  await parts.batcher.drain();
  await parts.sync.close();
  await parts.feed.disconnect();
  await closeDeliveryQueues(parts.queues);
  parts.redis.disconnect();
  await parts.db.close();
}
