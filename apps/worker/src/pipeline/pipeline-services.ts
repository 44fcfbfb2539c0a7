import type { DbHandle } from "@hookflow/db";
import type { Mailer } from "@hookflow/mail";
import type { Logger } from "@hookflow/observability";
import {
  type AiPort,
  type EnginePorts,
  MERGE_TIMEOUT_SECONDS,
  type MergePort,
  type PatternPort,
  type RateLimitPort,
  stepJson,
  type TransformPort,
} from "@hookflow/pipeline";
import type { ChangeFeed, RedisKeys } from "@hookflow/queue";
import type { Redis } from "ioredis";
import { STEP_PAYLOAD_LIMIT_BYTES, type StepReporter } from "../steps/step-reporter.js";
import type { ApprovalNotifier } from "./approval-notifier.js";
import { createGraphCache, type GraphCache } from "./graph-cache.js";
import { createRedisMergeStore } from "./ports/redis-merge-store.js";
import { createRedisNodeRateLimit } from "./ports/redis-node-rate-limit.js";

/** What the worker needs to run node graphs: the graph cache and the engine's shared ports. */
export interface PipelineServices {
  graphs: GraphCache;
  transform: TransformPort;
  patterns: PatternPort;
  rateLimit: RateLimitPort;
  merge: MergePort;
  approvals: ApprovalNotifier;
  /** The worker's one mailer (approval gates and email actions share its SMTP pool and limits). */
  mailer: Mailer;
  delayScale: number;
  /** AI nodes' model calls, set once the worker's services exist (they run tool webhooks). */
  ai?: AiPort;
  /** The engine's ports for one event's job: steps go live to its stream as they happen. */
  portsFor: (eventId: string) => EnginePorts;
  close: () => Promise<void>;
}

/** How long merge arrivals stay in Redis: the merge timeout plus an hour, scaled. */
function mergeTtlMs(delayScale: number): number {
  return Math.max(60_000, Math.round((MERGE_TIMEOUT_SECONDS + 3600) * 1000 * delayScale));
}

export function createPipelineServices(options: {
  db: DbHandle;
  redis: Redis;
  feed: ChangeFeed;
  keys: RedisKeys;
  logger: Logger;
  steps: StepReporter;
  transform: TransformPort;
  patterns: PatternPort;
  approvals: ApprovalNotifier;
  mailer: Mailer;
  delayScale: number;
  now: () => Date;
  closeTransform?: () => Promise<void>;
}): PipelineServices {
  const { redis, keys, steps, delayScale } = options;
  const graphs = createGraphCache({
    db: options.db,
    feed: options.feed,
    graphChannel: keys.graphChangedChannel,
    webhookChannel: keys.webhookChangedChannel,
    logger: options.logger,
  });
  const rateLimit = createRedisNodeRateLimit({ redis, keys });
  const merge = createRedisMergeStore({ redis, keys, ttlMs: mergeTtlMs(delayScale) });
  const services: PipelineServices = {
    graphs,
    transform: options.transform,
    patterns: options.patterns,
    rateLimit,
    merge,
    approvals: options.approvals,
    mailer: options.mailer,
    delayScale,
    portsFor: (eventId) => ({
      ...(services.ai ? { ai: services.ai } : {}),
      transform: options.transform,
      patterns: options.patterns,
      rateLimit,
      merge,
      now: () => options.now().getTime(),
      delayScale,
      // The step's text is written once: the stream message now, its stored element later.
      onStep: (step) => steps.stepJson(eventId, stepJson(eventId, step, STEP_PAYLOAD_LIMIT_BYTES)),
    }),
    close: async () => {
      await options.closeTransform?.();
    },
  };
  return services;
}
