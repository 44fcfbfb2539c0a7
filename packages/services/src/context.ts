import type { DbHandle } from "@hookflow/db";
import type { KeyRing } from "@hookflow/domain";
import type { Logger } from "@hookflow/observability";
import type { DeliveryQueues, RedisKeys, ScheduleJobData } from "@hookflow/queue";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";

/**
 * What the verbs of this package work with: the stores and queues of one running process. The
 * api builds one for its routes (its own services extend it); the CLI builds one from config for
 * the admin commands. Verbs take the actor separately and check scope and ownership themselves.
 */
export interface ServiceContext {
  db: DbHandle;
  redis: Redis;
  keys: RedisKeys;
  /** Producer handles on the five delivery lanes (replay, cancel, test events). */
  queues: DeliveryQueues;
  /** The job schedulers of scheduled workflows, kept in step with every workflow write. */
  schedules: Queue<ScheduleJobData>;
  /** Seals and opens secrets at rest (webhook tokens and secrets, credentials). */
  keyRing: KeyRing;
  logger: Logger;
  now: () => Date;
}
