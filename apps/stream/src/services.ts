import type { HookflowConfig } from "@hookflow/config";
import { createLogger, createMetrics, type Logger, type Metrics } from "@hookflow/observability";
import { type RedisKeys, redisKeys } from "@hookflow/queue";
import { Redis } from "ioredis";

export interface StreamServices {
  config: HookflowConfig;
  /** Commands (the per-event replay buffer is read through this one). */
  redis: Redis;
  /** Pub/sub only: a connection in subscriber mode cannot run other commands. */
  subscriber: Redis;
  keys: RedisKeys;
  logger: Logger;
  metrics: Metrics;
  now: () => Date;
  close: () => Promise<void>;
}

export interface BuildStreamServicesOptions {
  config: HookflowConfig;
  logger?: Logger;
  metrics?: Metrics;
  now?: () => Date;
}

/** Composition root of the stream app: builds every long-lived part once. */
export function buildStreamServices(options: BuildStreamServicesOptions): StreamServices {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel, role: "stream" });
  const metrics = options.metrics ?? createMetrics({ role: "stream" });
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on("error", (error) => logger.warn({ err: error }, "redis error"));
  // Subscriptions are re-established by ioredis on reconnect (autoResubscribe is on by default).
  const subscriber = new Redis(config.redisUrl, { maxRetriesPerRequest: null });
  subscriber.on("error", (error) => logger.warn({ err: error }, "redis subscriber error"));
  return {
    config,
    redis,
    subscriber,
    keys: redisKeys(config.redisPrefix),
    logger,
    metrics,
    now: options.now ?? (() => new Date()),
    close: async () => {
      subscriber.disconnect();
      redis.disconnect();
    },
  };
}
