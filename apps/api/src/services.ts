import type { HookflowConfig } from "@hookflow/config";
import { createDb } from "@hookflow/db";
import {
  type ClientAddressResolver,
  createClientAddressResolver,
  createKeyRing,
} from "@hookflow/domain";
import { createLogger, createMetrics, type Logger, type Metrics } from "@hookflow/observability";
import {
  createTransformRunnerPort,
  type PatternPort,
  type TransformPort,
} from "@hookflow/pipeline";
import {
  closeDeliveryQueues,
  createDeliveryQueues,
  createScheduleQueue,
  redisKeys,
} from "@hookflow/queue";
import {
  createFixedWindow,
  createLoginThrottle,
  createPasswordHasher,
  type FixedWindow,
  type LoginThrottle,
  type LoginThrottleLimits,
  type PasswordHasher,
  type ServiceContext,
} from "@hookflow/services";
import { createTransformRunner, type TransformRunner } from "@hookflow/transforms";
import { Redis } from "ioredis";
import { type ApiMetrics, createApiMetrics } from "./http/api-metrics.js";

/** Password hashes running at once per api process (128 MiB of memory each). */
const PASSWORD_HASH_CONCURRENCY = 2;

import { type ConsoleAssets, loadConsoleAssets } from "./console/console-assets.js";
import { locateConsole } from "./console/locate-console.js";

/** The api's long-lived parts: the verbs' context (@hookflow/services) and the http edge's own. */
export interface ApiServices extends ServiceContext {
  config: HookflowConfig;
  metrics: Metrics;
  apiMetrics: ApiMetrics;
  /** Failed events replay-all reopens and queues per batch (and holds in memory at once). */
  replayAllBatchSize: number;
  /** The client address of a request, believing X-Forwarded-For only from TRUSTED_PROXIES. */
  clientAddress: ClientAddressResolver;
  passwords: PasswordHasher;
  loginThrottle: LoginThrottle;
  /** Fixed-window counters in Redis (api rate limit, signups per address). */
  fixedWindow: FixedWindow;
  /**
   * The engine's transform port for time travel. The sandboxed runner (jq threads, JavaScript
   * sandbox processes) is created on first use and closed with the services.
   */
  transformPort: () => TransformPort;
  /** The schema validators' off-loop pattern matching, on the same runner. */
  patternPort: () => PatternPort;
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
  /** Login throttle numbers other than the documented ones (tests). */
  loginThrottleLimits?: LoginThrottleLimits;
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
  const schedules = createScheduleQueue({ connection: redis, prefix: config.redisPrefix });
  let transforms: { runner: TransformRunner; port: TransformPort } | undefined;
  const transformRunner = () => {
    if (!transforms) {
      // Time travel is occasional: one jq thread and one sandbox process are plenty.
      const runner = createTransformRunner({ jqWorkers: 1, jsProcesses: 1 });
      transforms = { runner, port: createTransformRunnerPort(runner) };
    }
    return transforms;
  };
  const transformPort = (): TransformPort => transformRunner().port;
  const patternPort = (): PatternPort => ({
    match: (checks) => transformRunner().runner.matchPatterns(checks),
  });
  const keys = redisKeys(config.redisPrefix);
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
    keys,
    queues,
    schedules,
    logger,
    metrics,
    apiMetrics: createApiMetrics(metrics),
    keyRing: createKeyRing(config.encryptionKeys),
    now: options.now ?? (() => new Date()),
    replayAllBatchSize: options.replayAllBatchSize ?? REPLAY_ALL_BATCH_SIZE,
    clientAddress: createClientAddressResolver(config.trustedProxies),
    passwords: createPasswordHasher({ concurrency: PASSWORD_HASH_CONCURRENCY }),
    loginThrottle: createLoginThrottle({ redis, keys, limits: options.loginThrottleLimits }),
    fixedWindow: createFixedWindow(redis),
    transformPort,
    patternPort,
    close: async () => {
      await transforms?.runner.close();
      await closeDeliveryQueues(queues);
      await schedules.close();
      redis.disconnect();
      await db.close();
    },
  };
}
