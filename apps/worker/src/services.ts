import { setFlagsFromString } from "node:v8";
import type { HookflowConfig } from "@hookflow/config";
import { createDb, type DbHandle } from "@hookflow/db";
import { createKeyRing } from "@hookflow/domain";
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
  createScheduleQueue,
  createStepPublisher,
  createWebhookFeedPublisher,
  type DeliveryQueues,
  deliveryQueueName,
  type RedisKeys,
  redisKeys,
  type ScheduleJobData,
  type WebhookFeedPublisher,
} from "@hookflow/queue";
import type { Queue } from "bullmq";
import { Redis } from "ioredis";
import { type ActionServices, buildActionServices } from "./actions/action-services.js";
import { bearerTokenResolver, gmailAiTools } from "./actions/ai-integrations.js";
import { type AiToolSource, createAiPort, type ResolveBearerToken } from "./ai/ai-port.js";
import { createChatClient } from "./ai/chat-client.js";
import { type ChangeFeed, createChangeFeed } from "./cache/change-feed.js";
import { type CircuitBreakerStore, createCircuitBreakerStore } from "./delivery/circuit-store.js";
import { createDeliveryBatches, type DeliveryBatches } from "./delivery/delivery-batches.js";
import { createHttpSender, type HttpSender } from "./delivery/http-sender.js";
import { createRateLimiter, type RateLimiter } from "./delivery/rate-limiter.js";
import { createWorkerMetrics, type WorkerMetrics } from "./observability/worker-metrics.js";
import { buildPipelineServices } from "./pipeline/build-pipeline-services.js";
import type { PipelineServices } from "./pipeline/pipeline-services.js";
import { createStepReporter, type StepReporter } from "./steps/step-reporter.js";
import type { SweeperOptions } from "./sweeper/sweeper.js";
import { createTargetCache, type TargetCache } from "./targets/target-cache.js";
import { createWebhookCache, type WebhookCache } from "./webhooks/webhook-cache.js";

type Tracer = ReturnType<typeof getTracer>;

export interface WorkerServices {
  config: HookflowConfig;
  db: DbHandle;
  /** The delivery path's event reads and attempt records, batched across running jobs. */
  batches: DeliveryBatches;
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
  /** Scheduled workflows' job schedulers (the sweeper restores them from Postgres). */
  schedules: Queue<ScheduleJobData>;
  webhooks: WebhookCache;
  /** Webhook and graph change announcements, feeding the caches. */
  changes: ChangeFeed;
  http: HttpSender;
  rateLimiter: RateLimiter;
  breaker: CircuitBreakerStore;
  sweeper: SweeperOptions;
  /** Publishes pipeline steps and `done` for streams and sync-mode requests (fire and forget). */
  steps: StepReporter;
  /** Announces each event a delivery job starts, for webhook-level live streams. */
  webhookFeed: WebhookFeedPublisher;
  /** The node graph: graph cache, transform runner, merge and rate-limiter ports, approval mail. */
  pipeline: PipelineServices;
  /** Each webhook's active additional targets (cached). */
  targets: TargetCache;
  /** Post-delivery actions: their run queue and the executors' ports. */
  actions: ActionServices;
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
  /**
   * The bearer token of an AI node's credential (the credentials store plugs in here). Without
   * it, an AI node with a credentialId fails; one without calls its model with no token.
   */
  resolveBearerToken?: ResolveBearerToken;
  /** Extra AI tools besides webhooks (the seam for Gmail actions with aiEnabled). */
  aiTools?: AiToolSource;
}

/**
 * Steps gather this long before one Redis call publishes them: the messages of every job running
 * meanwhile share the call (each call is a round trip, the main cost of publishing). Live viewers
 * see steps at most this much later; events of sync-mode webhooks skip the wait.
 */
const STEP_FLUSH_DELAY_MS = 20;

/** A model call's timeout (headers, body, the whole exchange): models answer slowly. */
const AI_CALL_TIMEOUT_MS = 60_000;

function defaultSweeper(delayScale: number): SweeperOptions {
  return {
    intervalMs: Math.max(250, Math.round(5_000 * delayScale)),
    graceMs: Math.max(250, Math.round(10_000 * delayScale)),
    batchSize: 500,
  };
}

/** Composition root of the worker: builds every long-lived part once. */
/**
 * Memory: a full GC once the old space is 1.3 times what survived the last one, instead of V8's
 * server default of several times. Delivery data is short-lived, so the live heap stays small and
 * RSS follows it (measured: 211 MB -> 164 MB peak while draining a backlog; docs/benchmarks.md).
 */
const HEAP_GROWING_PERCENT = 30;

export function buildWorkerServices(options: BuildWorkerServicesOptions): WorkerServices {
  const { config } = options;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
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
  const schedules = createScheduleQueue({ connection: bullConnection, prefix: keys.bullPrefix });
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
  const now = options.now ?? (() => new Date());
  const steps = createStepReporter({
    publisher: createStepPublisher({
      redis,
      keys,
      flushDelayMs: STEP_FLUSH_DELAY_MS,
      onError: (error, messages) =>
        logger.warn({ err: error, messages }, "could not publish pipeline steps"),
    }),
    now,
  });
  const webhookFeed = createWebhookFeedPublisher({
    redis,
    keys,
    flushDelayMs: STEP_FLUSH_DELAY_MS,
    onError: (error, announcements) =>
      logger.warn({ err: error, announcements }, "could not announce events to webhook streams"),
  });
  const changes = createChangeFeed({ subscriber, logger });
  const pipeline = buildPipelineServices({
    config,
    db,
    redis,
    keys,
    logger,
    steps,
    feed: changes,
    now,
  });
  const keyRing = createKeyRing(config.encryptionKeys);
  const actions = buildActionServices({
    config,
    db,
    keyRing,
    bullConnection,
    bullPrefix: keys.bullPrefix,
    http,
    transform: pipeline.transform,
    mailer: pipeline.mailer,
    now,
  });
  const webhooks = createWebhookCache({
    db: db.db,
    keyRing,
    feed: changes,
    channel: keys.webhookChangedChannel,
    logger,
  });

  const batches = createDeliveryBatches(db);
  const targets = createTargetCache({
    db,
    feed: changes,
    graphChannel: keys.graphChangedChannel,
    webhookChannel: keys.webhookChangedChannel,
    logger,
  });
  const chat = createChatClient({
    timeoutMs: AI_CALL_TIMEOUT_MS,
    allowPrivateTargets: config.allowPrivateTargets,
  });
  let built: WorkerServices | undefined;
  pipeline.ai = createAiPort({
    services: () => {
      if (!built) throw new Error("worker services are not built yet");
      return built;
    },
    chat,
    // Credentials and Gmail actions with aiEnabled, unless a caller plugs in its own.
    resolveBearerToken: options.resolveBearerToken ?? bearerTokenResolver(actions.ports),
    extraTools: options.aiTools ?? gmailAiTools(db, actions.ports),
    delayScale: config.delayScale,
  });

  built = {
    config,
    db,
    batches,
    redis,
    bullConnection,
    keys,
    logger,
    metrics,
    workerMetrics,
    tracer: getTracer("worker"),
    queues,
    schedules,
    webhooks,
    changes,
    http,
    rateLimiter: createRateLimiter({ redis, keyOf: keys.rateWindow }),
    breaker,
    sweeper: { ...defaultSweeper(config.delayScale), ...options.sweeper },
    steps,
    webhookFeed,
    pipeline,
    targets,
    actions,
    now,
    close: async () => {
      await changes.close();
      await actions.close();
      await pipeline.close();
      await closeDeliveryQueues(queues);
      await schedules.close();
      await http.close();
      await chat.close();
      await breaker.close();
      await steps.flush();
      await webhookFeed.idle();
      await batches.drain();
      redis.disconnect();
      bullConnection.disconnect();
      await db.close();
    },
  };
  return built;
}
