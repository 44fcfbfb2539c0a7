import { setFlagsFromString } from "node:v8";
import type { HookflowConfig } from "@hookflow/config";
import type { DbHandle } from "@hookflow/db";
import { getTracer, type Logger, type Metrics } from "@hookflow/observability";
import type { AiPort } from "@hookflow/pipeline";
import type { ChangeFeed } from "@hookflow/queue";
import {
  closeDeliveryQueues,
  type DeliveryQueues,
  type RedisKeys,
  type ScheduleJobData,
  type WebhookFeedPublisher,
} from "@hookflow/queue";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { ActionServices } from "./actions/action-services.js";
import { bearerTokenResolver, gmailAiTools } from "./actions/ai-integrations.js";
import { type AiToolSource, createAiPort, type ResolveBearerToken } from "./ai/ai-port.js";
import { type ChatClient, createChatClient } from "./ai/chat-client.js";
import type { CircuitBreakerStore } from "./delivery/circuit-store.js";
import type { DeliveryBatches } from "./delivery/delivery-batches.js";
import type { HttpSender } from "./delivery/http-sender.js";
import { createRateLimiter, type RateLimiter } from "./delivery/rate-limiter.js";
import type { WorkerMetrics } from "./observability/worker-metrics.js";
import type { PipelineServices } from "./pipeline/pipeline-services.js";
import type { StepReporter } from "./steps/step-reporter.js";
import type { SweeperOptions } from "./sweeper/sweeper.js";
import type { TargetCache } from "./targets/target-cache.js";
import type { WebhookCache } from "./webhooks/webhook-cache.js";
import {
  buildNodeServices,
  createDeliveryLookups,
  createDeliveryParts,
  createFeeds,
  openWorkerBase,
} from "./worker-parts.js";

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

/** A model call's timeout (headers, body, the whole exchange): models answer slowly. */
const AI_CALL_TIMEOUT_MS = 60_000;

function defaultSweeper(delayScale: number): SweeperOptions {
  return {
    intervalMs: Math.max(250, Math.round(5_000 * delayScale)),
    graceMs: Math.max(250, Math.round(10_000 * delayScale)),
    batchSize: 500,
  };
}

/**
 * Memory: a full GC once the old space is 1.3 times what survived the last one, instead of V8's
 * server default of several times. Delivery data is short-lived, so the live heap stays small and
 * RSS follows it (measured: 211 MB -> 164 MB peak while draining a backlog; docs/benchmarks.md).
 */
const HEAP_GROWING_PERCENT = 30;

/** Every service but `close`, which closes these very parts. */
type WorkerParts = Omit<WorkerServices, "close">;

/** The services once built, for the AI port, which is built before them and reads them per call. */
interface LateServices {
  current?: WorkerServices;
}

function builtServices(late: LateServices): WorkerServices {
  if (!late.current) throw new Error("worker services are not built yet");
  return late.current;
}

/** The AI nodes' port: model calls through `chat`, tools from the services once built. */
function createWorkerAiPort(
  options: BuildWorkerServicesOptions,
  parts: { late: LateServices; chat: ChatClient; db: DbHandle; actions: ActionServices },
): AiPort {
  const { late, db, actions } = parts;
  return createAiPort({
    services: () => builtServices(late),
    chat: parts.chat,
    // Credentials and Gmail actions with aiEnabled, unless a caller plugs in its own.
    resolveBearerToken: options.resolveBearerToken ?? bearerTokenResolver(actions.ports),
    extraTools: options.aiTools ?? gmailAiTools(db, actions.ports),
    delayScale: options.config.delayScale,
  });
}

async function closeWorkerServices(parts: WorkerParts, chat: ChatClient): Promise<void> {
  await parts.changes.close();
  await parts.actions.close();
  await parts.pipeline.close();
  await closeDeliveryQueues(parts.queues);
  await parts.schedules.close();
  await parts.http.close();
  await chat.close();
  await parts.breaker.close();
  await parts.steps.flush();
  await parts.webhookFeed.idle();
  await parts.batches.drain();
  parts.redis.disconnect();
  parts.bullConnection.disconnect();
  await parts.db.close();
}

/** Composition root of the worker: builds every long-lived part once. */
export function buildWorkerServices(options: BuildWorkerServicesOptions): WorkerServices {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const base = openWorkerBase(options);
  const { config, db, redis, bullConnection, keys, logger, metrics, now } = base;
  const { queues, schedules, workerMetrics, http, breaker } = createDeliveryParts(base);
  const { steps, webhookFeed, changes } = createFeeds(base);
  const { pipeline, keyRing, actions } = buildNodeServices(base, { http, steps, changes });
  const { webhooks, batches, targets } = createDeliveryLookups(base, { keyRing, changes });
  const chat = createChatClient({
    timeoutMs: AI_CALL_TIMEOUT_MS,
    allowPrivateTargets: config.allowPrivateTargets,
  });
  const late: LateServices = {};
  pipeline.ai = createWorkerAiPort(options, { late, chat, db, actions });

  const parts: WorkerParts = {
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
  };
  // Close shuts what was built here, whatever a caller later assigns to `built`.
  const built: WorkerServices = { ...parts, close: () => closeWorkerServices(parts, chat) };
  late.current = built;
  return built;
}
