import type { HookflowConfig } from "@hookflow/config";
import { createDb, type DbHandle } from "@hookflow/db";
import { createKeyRing, type KeyRing } from "@hookflow/domain";
import { createLogger, createMetrics, type Logger, type Metrics } from "@hookflow/observability";
import { createTransformRunnerPort, type TransformPort } from "@hookflow/pipeline";
import {
  closeDeliveryQueues,
  createDeliveryQueues,
  type DeliveryQueues,
  type RedisKeys,
  redisKeys,
} from "@hookflow/queue";
import { createTransformRunner, type TransformRunner } from "@hookflow/transforms";
import { Redis } from "ioredis";

export interface ApiServices {
  config: HookflowConfig;
  db: DbHandle;
  redis: Redis;
  keys: RedisKeys;
  /** Producer handles on the five delivery lanes (replay, cancel, test events). */
  queues: DeliveryQueues;
  logger: Logger;
  metrics: Metrics;
  /** Seals and opens credentials at rest (webhook tokens and secrets). */
  keyRing: KeyRing;
  now: () => Date;
  /**
   * The engine's transform port for time travel. The sandboxed runner (jq threads, JavaScript
   * sandbox processes) is created on first use and closed with the services.
   */
  transformPort: () => TransformPort;
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
  // Queues share the api's connection: only blocking Workers need maxRetriesPerRequest: null.
  const queues = createDeliveryQueues({ connection: redis, prefix: config.redisPrefix });
  let transforms: { runner: TransformRunner; port: TransformPort } | undefined;
  const transformPort = (): TransformPort => {
    if (!transforms) {
      // Time travel is occasional: one jq thread and one sandbox process are plenty.
      const runner = createTransformRunner({ jqWorkers: 1, jsProcesses: 1 });
      transforms = { runner, port: createTransformRunnerPort(runner) };
    }
    return transforms.port;
  };
  return {
    config,
    db,
    redis,
    keys: redisKeys(config.redisPrefix),
    queues,
    logger,
    metrics,
    keyRing: createKeyRing(config.encryptionKeys),
    now: options.now ?? (() => new Date()),
    transformPort,
    close: async () => {
      await transforms?.runner.close();
      await closeDeliveryQueues(queues);
      redis.disconnect();
      await db.close();
    },
  };
}
