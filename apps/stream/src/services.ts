import type { HookflowConfig } from "@hookflow/config";
import { STREAM_TOKEN_TTL_MS } from "@hookflow/domain";
import { createLogger, createMetrics, type Logger, type Metrics } from "@hookflow/observability";
import { createStepHub, type RedisKeys, redisKeys, type StepHub } from "@hookflow/queue";
import { Redis } from "ioredis";
import { createOpenStreams, type OpenStreams } from "./events/open-streams.js";
import { createStreamMetrics, type StreamMetrics } from "./events/stream-metrics.js";
import { createStreamSlots, type StreamSlots } from "./events/stream-slots.js";
import {
  buildWebhookStreamParts,
  type WebhookStreamParts,
} from "./webhooks/webhook-stream-parts.js";

/** Spec: a stream closes after 120 s without completion. */
const STREAM_TIMEOUT_MS = 120_000;
/** docs/decisions.md, "Live steps, stream and sync mode": a heartbeat comment every 15 s. */
const HEARTBEAT_MS = 15_000;
/** A client this far behind (1 MiB unread) is cut off rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface StreamSettings {
  timeoutMs: number;
  heartbeatMs: number;
  maxBufferedBytes: number;
}

export interface StreamServices {
  config: HookflowConfig;
  /** Commands (the per-event replay buffer is read through this one). */
  redis: Redis;
  /** Pub/sub only: a connection in subscriber mode cannot run other commands. */
  subscriber: Redis;
  keys: RedisKeys;
  /** The process's one subscription to the steps channel, fanned out to every open stream. */
  hub: StepHub;
  streams: OpenStreams;
  /** Caps: `STREAM_MAX_PER_TOKEN` per token (across processes), `STREAM_MAX_PER_PROCESS` here. */
  slots: StreamSlots;
  /** Webhook-level streams: the feed of new events per webhook and the stream caps. */
  webhookStreams: WebhookStreamParts;
  settings: StreamSettings;
  logger: Logger;
  metrics: Metrics;
  streamMetrics: StreamMetrics;
  now: () => Date;
  close: () => Promise<void>;
}

export interface BuildStreamServicesOptions {
  config: HookflowConfig;
  logger?: Logger;
  metrics?: Metrics;
  now?: () => Date;
  /** Shorter waits for tests; the defaults are the documented ones. */
  settings?: Partial<StreamSettings>;
}

/** Composition root of the stream app: builds every long-lived part once. */
export function buildStreamServices(options: BuildStreamServicesOptions): StreamServices {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel, role: "stream" });
  const metrics = options.metrics ?? createMetrics({ role: "stream" });
  const keys = redisKeys(config.redisPrefix);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on("error", (error) => logger.warn({ err: error }, "redis error"));
  // The hub subscribes again itself after a reconnect, then re-reads the buffers it watches.
  const subscriber = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  subscriber.on("error", (error) => logger.warn({ err: error }, "redis subscriber error"));
  const hub = createStepHub({
    subscriberRedis: subscriber,
    commandRedis: redis,
    keys,
    onError: (error, context) => logger.warn({ err: error }, context),
  });
  const streams = createOpenStreams();
  const settings: StreamSettings = {
    timeoutMs: STREAM_TIMEOUT_MS,
    heartbeatMs: HEARTBEAT_MS,
    maxBufferedBytes: MAX_BUFFERED_BYTES,
    ...options.settings,
  };
  const slots = createStreamSlots({
    redis,
    keys,
    maxPerToken: config.streamMaxPerToken,
    maxPerProcess: config.streamMaxPerProcess,
    // A margin over the longest a token's streams can last, for clocks and slow writes.
    counterTtlMs: STREAM_TOKEN_TTL_MS + Math.max(settings.timeoutMs, STREAM_TIMEOUT_MS) + 60_000,
    onError: (error) => logger.warn({ err: error }, "could not give back a stream slot"),
  });
  const webhookStreams = buildWebhookStreamParts({
    redisUrl: config.redisUrl,
    redis,
    keys,
    logger,
  });
  const streamMetrics = createStreamMetrics(metrics, {
    openStreams: streams.count,
    watchers: () => hub.listenerCount(),
  });
  return {
    config,
    redis,
    subscriber,
    keys,
    hub,
    streams,
    slots,
    webhookStreams,
    settings,
    logger,
    metrics,
    streamMetrics,
    now: options.now ?? (() => new Date()),
    close: async () => {
      streams.endAll();
      await webhookStreams.close();
      await hub.close();
      subscriber.disconnect();
      redis.disconnect();
    },
  };
}
