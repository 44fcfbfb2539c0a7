import type { HookflowConfig } from "@hookflow/config";
import type { DbHandle } from "@hookflow/db";
import { createMailer, createRedisMailQuota } from "@hookflow/mail";
import type { Logger } from "@hookflow/observability";
import { createTransformRunnerPort } from "@hookflow/pipeline";
import type { ChangeFeed, RedisKeys } from "@hookflow/queue";
import { createTransformRunner } from "@hookflow/transforms";
import type { Redis } from "ioredis";
import type { StepReporter } from "../steps/step-reporter.js";
import { createApprovalNotifier } from "./approval-notifier.js";
import { createPipelineServices, type PipelineServices } from "./pipeline-services.js";

/**
 * The node graph's long-lived parts for a worker process: the sandboxed transform runner, the
 * mail sender of approval gates, the graph cache (fed by the worker's change feed) and the Redis
 * ports of merges and rate limiters.
 */
export function buildPipelineServices(options: {
  config: HookflowConfig;
  db: DbHandle;
  redis: Redis;
  keys: RedisKeys;
  logger: Logger;
  steps: StepReporter;
  feed: ChangeFeed;
  now: () => Date;
}): PipelineServices {
  const { config, logger } = options;
  const runner = createTransformRunner();
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    db: options.db.db,
    logger,
    maxRecipients: config.mailMaxRecipients,
    // One budget per owner, shared by every worker.
    quota: createRedisMailQuota({
      redis: options.redis,
      keyOf: (owner) => options.keys.rateWindow(`mail:${owner}`),
      perHour: config.mailRateLimitPerHour,
    }),
    now: options.now,
  });
  return createPipelineServices({
    db: options.db,
    redis: options.redis,
    feed: options.feed,
    keys: options.keys,
    logger,
    steps: options.steps,
    transform: createTransformRunnerPort(runner),
    patterns: { match: (checks) => runner.matchPatterns(checks) },
    approvals: createApprovalNotifier({
      db: options.db,
      mailer,
      secret: config.secret,
      publicBaseUrl: config.publicBaseUrl,
      logger,
    }),
    mailer,
    delayScale: config.delayScale,
    now: options.now,
    closeTransform: async () => {
      mailer.close();
      await runner.close();
    },
  });
}
