import type { HookflowConfig } from "@hookflow/config";
import { createDb, type DbHandle } from "@hookflow/db";
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
import { type ConsoleAssets, loadConsoleAssets } from "./console/console-assets.js";
import { locateConsole } from "./console/locate-console.js";

export interface ApiServices {
  config: HookflowConfig;
  db: DbHandle;
  redis: Redis;
  keys: RedisKeys;
  /** Producer handles on the five delivery lanes (replay, cancel, test events). */
  queues: DeliveryQueues;
  logger: Logger;
  metrics: Metrics;
  now: () => Date;
  /** Failed events replay-all reopens and queues per batch (and holds in memory at once). */
  replayAllBatchSize: number;
  /**
   * The engine's transform port for time travel. The sandboxed runner (jq threads, JavaScript
   * sandbox processes) is created on first use and closed with the services.
   */
  transformPort: () => TransformPort;
  /** The built web console served at `/` (read once here), or why there is none. */
  console: ConsoleAssets;
  close: () => Promise<void>;
}

export interface BuildApiServicesOptions {
  config: HookflowConfig;
  logger?: Logger;
  metrics?: Metrics;
  now?: () => Date;
  /** Tests lower it to replay many batches with few events. */
  replayAllBatchSize?: number;
}

/** Replay-all's batch: about 8 MB at most with every body inline (16 KB each). */
export const REPLAY_ALL_BATCH_SIZE = 500;

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
  const webConsole = loadConsoleAssets(locateConsole(config.dashboardDir));
  if (webConsole.state === "missing") {
    logger.warn(
      { dir: webConsole.dir, reason: webConsole.reason },
      "web console not built: `/` answers 503 until `pnpm build` builds apps/dashboard",
    );
  }
  return {
    config,
    console: webConsole,
    db,
    redis,
    keys: redisKeys(config.redisPrefix),
    queues,
    logger,
    metrics,
    now: options.now ?? (() => new Date()),
    replayAllBatchSize: options.replayAllBatchSize ?? REPLAY_ALL_BATCH_SIZE,
    transformPort,
    close: async () => {
      await transforms?.runner.close();
      await closeDeliveryQueues(queues);
      redis.disconnect();
      await db.close();
    },
  };
}
