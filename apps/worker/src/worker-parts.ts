import type { HookflowConfig } from "@hookflow/config";
import { createDb, type DbHandle } from "@hookflow/db";
import { createKeyRing, type KeyRing } from "@hookflow/domain";
import { createLogger, createMetrics, type Logger, type Metrics } from "@hookflow/observability";
import {
  type ChangeFeed,
  createChangeFeed,
  createDeliveryQueues,
  createScheduleQueue,
  createStepPublisher,
  createWebhookFeedPublisher,
  type DeliveryQueues,
  deliveryQueueName,
  type RedisKeys,
  redisKeys,
} from "@hookflow/queue";
import { Redis } from "ioredis";
import { type ActionServices, buildActionServices } from "./actions/action-services.js";
import { createCircuitBreakerStore } from "./delivery/circuit-store.js";
import { createDeliveryBatches } from "./delivery/delivery-batches.js";
import { createHttpSender } from "./delivery/http-sender.js";
import { createWorkerMetrics } from "./observability/worker-metrics.js";
import { buildPipelineServices } from "./pipeline/build-pipeline-services.js";
import type { PipelineServices } from "./pipeline/pipeline-services.js";
import type { BuildWorkerServicesOptions, WorkerServices } from "./services.js";
import { createStepReporter } from "./steps/step-reporter.js";
import { createTargetCache } from "./targets/target-cache.js";
import { createWebhookCache } from "./webhooks/webhook-cache.js";

/**
 * Steps gather this long before one Redis call publishes them: the messages of every job running
 * meanwhile share the call (each call is a round trip, the main cost of publishing). Live viewers
 * see steps at most this much later; events of sync-mode webhooks skip the wait.
 */
const STEP_FLUSH_DELAY_MS = 20;

/** What every other part is built on: config, logging, the clock, connections and key names. */
interface WorkerBase {
  config: HookflowConfig;
  logger: Logger;
  metrics: Metrics;
  now: () => Date;
  db: DbHandle;
  redis: Redis;
  bullConnection: Redis;
  /** The change feed's connection (a subscribed connection runs no other commands). */
  subscriber: Redis;
  keys: RedisKeys;
}

/** The logger, metrics and clock (the caller's, or the defaults) and the connections. */
export function openWorkerBase(options: BuildWorkerServicesOptions): WorkerBase {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel, role: "worker" });
  const metrics = options.metrics ?? createMetrics({ role: "worker" });
  const db = createDb({
    url: config.databaseUrl,
    max: config.databasePoolSize,
    applicationName: "hookflow-worker",
  });
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on("error", (error) => logger.warn({ err: error }, "redis error"));
  const bullConnection = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  bullConnection.on("error", (error) => logger.warn({ err: error }, "redis (bullmq) error"));
  const subscriber = new Redis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
  subscriber.on("error", (error) => logger.warn({ err: error }, "redis (subscriber) error"));
  const keys = redisKeys(config.redisPrefix);
  const now = options.now ?? (() => new Date());
  return { config, logger, metrics, now, db, redis, bullConnection, subscriber, keys };
}

/** Jobs per lane and state, for the queue-depth gauge. */
async function countLaneJobs(
  queues: DeliveryQueues,
): Promise<Array<{ lane: string; state: string; count: number }>> {
  const rows: Array<{ lane: string; state: string; count: number }> = [];
  for (const [priority, queue] of queues) {
    const counts = await queue.getJobCounts("waiting", "delayed", "active", "prioritized");
    for (const [state, count] of Object.entries(counts)) {
      rows.push({ lane: deliveryQueueName(priority), state, count });
    }
  }
  return rows;
}

/** The lanes' queues (with their depth gauge), the schedulers' queue, the sender and breaker. */
export function createDeliveryParts(
  base: WorkerBase,
): Pick<WorkerServices, "queues" | "schedules" | "workerMetrics" | "http" | "breaker"> {
  const { config, redis, bullConnection, keys } = base;
  const queues = createDeliveryQueues({ connection: bullConnection, prefix: keys.bullPrefix });
  const schedules = createScheduleQueue({ connection: bullConnection, prefix: keys.bullPrefix });
  const workerMetrics = createWorkerMetrics(base.metrics, () => countLaneJobs(queues));
  const http = createHttpSender({
    timeoutMs: config.deliveryTimeoutMs,
    allowPrivateTargets: config.allowPrivateTargets,
  });
  const breaker = createCircuitBreakerStore({ redis, keyOf: keys.circuit });
  return { queues, schedules, workerMetrics, http, breaker };
}

/** The step and webhook-stream publishers, and the change feed the caches listen on. */
export function createFeeds(
  base: WorkerBase,
): Pick<WorkerServices, "steps" | "webhookFeed" | "changes"> {
  const { redis, keys, logger } = base;
  const steps = createStepReporter({
    publisher: createStepPublisher({
      redis,
      keys,
      flushDelayMs: STEP_FLUSH_DELAY_MS,
      onError: (error, messages) =>
        logger.warn({ err: error, messages }, "could not publish pipeline steps"),
    }),
    now: base.now,
  });
  const webhookFeed = createWebhookFeedPublisher({
    redis,
    keys,
    flushDelayMs: STEP_FLUSH_DELAY_MS,
    onError: (error, announcements) =>
      logger.warn({ err: error, announcements }, "could not announce events to webhook streams"),
  });
  const changes = createChangeFeed({ subscriber: base.subscriber, logger });
  return { steps, webhookFeed, changes };
}

/** The node graph's services and the post-delivery actions (they share transforms and mailer). */
export function buildNodeServices(
  base: WorkerBase,
  parts: Pick<WorkerServices, "http" | "steps" | "changes">,
): { pipeline: PipelineServices; keyRing: KeyRing; actions: ActionServices } {
  const { config, db, redis, keys, logger, now } = base;
  const pipeline = buildPipelineServices({
    config,
    db,
    redis,
    keys,
    logger,
    steps: parts.steps,
    feed: parts.changes,
    now,
  });
  const keyRing = createKeyRing(config.encryptionKeys);
  const actions = buildActionServices({
    config,
    db,
    keyRing,
    bullConnection: base.bullConnection,
    bullPrefix: keys.bullPrefix,
    http: parts.http,
    transform: pipeline.transform,
    mailer: pipeline.mailer,
    now,
  });
  return { pipeline, keyRing, actions };
}

/** What a delivery job reads: webhooks and targets (cached until changed) and events (batched). */
export function createDeliveryLookups(
  base: WorkerBase,
  parts: { keyRing: KeyRing; changes: ChangeFeed },
): Pick<WorkerServices, "webhooks" | "batches" | "targets"> {
  const { db, keys, logger } = base;
  const webhooks = createWebhookCache({
    db: db.db,
    keyRing: parts.keyRing,
    feed: parts.changes,
    channel: keys.webhookChangedChannel,
    logger,
  });
  const batches = createDeliveryBatches(db);
  const targets = createTargetCache({
    db,
    feed: parts.changes,
    graphChannel: keys.graphChangedChannel,
    webhookChannel: keys.webhookChangedChannel,
    logger,
  });
  return { webhooks, batches, targets };
}
