import type { HookflowConfig } from "@hookflow/config";
import { createDb, type DbHandle } from "@hookflow/db";
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
  deliveryQueueName,
  type RedisKeys,
  redisKeys,
} from "@hookflow/queue";
import { Redis } from "ioredis";
import { type CircuitBreakerStore, createCircuitBreakerStore } from "./delivery/circuit-store.js";
import { createHttpSender, type HttpSender } from "./delivery/http-sender.js";
import { createRateLimiter, type RateLimiter } from "./delivery/rate-limiter.js";
import { createWorkerMetrics, type WorkerMetrics } from "./observability/worker-metrics.js";
import type { SweeperOptions } from "./sweeper/sweeper.js";
import { createWebhookCache, type WebhookCache } from "./webhooks/webhook-cache.js";

export type Tracer = ReturnType<typeof getTracer>;

export interface WorkerServices {
  config: HookflowConfig;
  db: DbHandle;
  /** Commands (rate limits, breaker state, leases, health pings). */
  redis: Redis;
  /** BullMQ's connection (queues and workers; `maxRetriesPerRequest: null` as BullMQ requires). */
  bullConnection: Redis;
  keys: RedisKeys;
  logger: Logger;
  metrics: Metrics;
  workerMetrics: WorkerMetrics;
  tracer: Tracer;
  queues: DeliveryQueues;
  webhooks: WebhookCache;
  http: HttpSender;
  rateLimiter: RateLimiter;
  breaker: CircuitBreakerStore;
  sweeper: SweeperOptions;
  now: () => Date;
  close: () => Promise<void>;
}

export interface BuildWorkerServicesOptions {
  config: HookflowConfig;
  logger?: Logger;
  metrics?: Metrics;
  now?: () => Date;
  /** Sweeper cadence; defaults scale with `HOOKFLOW_DELAY_SCALE`. */
  sweeper?: Partial<SweeperOptions>;
}

function defaultSweeper(delayScale: number): SweeperOptions {
  return {
    intervalMs: Math.max(250, Math.round(5_000 * delayScale)),
    graceMs: Math.max(250, Math.round(10_000 * delayScale)),
    batchSize: 500,
  };
}

/** Composition root of the worker: builds every long-lived part once. */
export function buildWorkerServices(options: BuildWorkerServicesOptions): WorkerServices {
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
  const queues = createDeliveryQueues({ connection: bullConnection, prefix: keys.bullPrefix });
  const workerMetrics = createWorkerMetrics(metrics, async () => {
    const rows: Array<{ lane: string; state: string; count: number }> = [];
    for (const [priority, queue] of queues) {
      const counts = await queue.getJobCounts("waiting", "delayed", "active", "prioritized");
      for (const [state, count] of Object.entries(counts)) {
        rows.push({ lane: deliveryQueueName(priority), state, count });
      }
    }
    return rows;
  });
  const http = createHttpSender({
    timeoutMs: config.deliveryTimeoutMs,
    allowPrivateTargets: config.allowPrivateTargets,
  });
  const breaker = createCircuitBreakerStore({ redis, keyOf: keys.circuit });
  const webhooks = createWebhookCache({
    db: db.db,
    subscriber,
    channel: keys.webhookChangedChannel,
    logger,
  });

  return {
    config,
    db,
    redis,
    bullConnection,
    keys,
    logger,
    metrics,
    workerMetrics,
    tracer: getTracer("worker"),
    queues,
    webhooks,
    http,
    rateLimiter: createRateLimiter({ redis, keyOf: keys.rateWindow }),
    breaker,
    sweeper: { ...defaultSweeper(config.delayScale), ...options.sweeper },
    now: options.now ?? (() => new Date()),
    close: async () => {
      await webhooks.close();
      await closeDeliveryQueues(queues);
      await http.close();
      await breaker.close();
      redis.disconnect();
      bullConnection.disconnect();
      await db.close();
    },
  };
}
