import type { HookflowConfig } from "@hookflow/config";
import { createDb, type DbHandle } from "@hookflow/db";
import { createLogger, createMetrics, type Logger, type Metrics } from "@hookflow/observability";
import { type RedisKeys, redisKeys } from "@hookflow/queue";
import { Redis } from "ioredis";

export interface ApiServices {
  config: HookflowConfig;
  db: DbHandle;
  redis: Redis;
  keys: RedisKeys;
  logger: Logger;
  metrics: Metrics;
  now: () => Date;
  close: () => Promise<void>;
}

export interface BuildApiServicesOptions {
  config: HookflowConfig;
  logger?: Logger;
  metrics?: Metrics;
  now?: () => Date;
}

/** Composition root of the api: builds every long-lived part once. */
export function buildApiServices(options: BuildApiServicesOptions): ApiServices {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.logLevel, role: "api" });
  const metrics = options.metrics ?? createMetrics({ role: "api" });
  const db = createDb({
    url: config.databaseUrl,
    max: config.databasePoolSize,
    applicationName: "hookflow-api",
  });
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  redis.on("error", (error) => logger.warn({ err: error }, "redis error"));
  return {
    config,
    db,
    redis,
    keys: redisKeys(config.redisPrefix),
    logger,
    metrics,
    now: options.now ?? (() => new Date()),
    close: async () => {
      redis.disconnect();
      await db.close();
    },
  };
}
