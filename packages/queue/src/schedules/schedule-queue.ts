import type { ScheduledWorkflowConfig } from "@hookflow/pipeline";
// The cron module alone: the ingress and stream roles load this package without the node
// graph.
import { nextCronRun } from "@hookflow/pipeline/cron";
import { Queue, type RepeatStrategy } from "bullmq";
import type { Redis } from "ioredis";
import { z } from "zod";

/**
 * Scheduled workflows tick through BullMQ job schedulers (docs/decisions.md, Scheduled
 * workflows): one scheduler per workflow, its id the workflow's id. BullMQ keeps exactly one
 * next job per scheduler (its job id is the scheduler id and the tick time), so however many
 * workers run, each tick is one job; the run table's unique tick key makes it fire once even if
 * a job is ever duplicated.
 */

export const SCHEDULE_QUEUE_NAME = "scheduled-workflows";
export const SCHEDULE_JOB_NAME = "tick";

export const ScheduleJobData = z.object({ workflowId: z.string() });
export type ScheduleJobData = z.infer<typeof ScheduleJobData>;

/**
 * Ticks computed by croner, the library the API validates expressions with, so an accepted
 * expression fires exactly as documented (BullMQ's own parser differs on some syntax).
 */
export const cronRepeatStrategy: RepeatStrategy = (millis, opts) => {
  if (!opts.pattern) return undefined;
  const next = nextCronRun(opts.pattern, opts.tz ?? "UTC", new Date(millis));
  return next === null ? undefined : next.getTime();
};

/** BullMQ retries a tick's url call this many times in all (the first attempt included). */
export const SCHEDULED_CALL_ATTEMPTS = 3;

/** The first retry's wait (then doubled), before `HOOKFLOW_DELAY_SCALE`. */
const SCHEDULED_RETRY_DELAY_MS = 2_000;

/** The first retry's wait of a failed url call under a delay scale (at least 10 ms). */
export function scheduledRetryDelayMs(delayScale: number): number {
  return Math.max(10, Math.round(SCHEDULED_RETRY_DELAY_MS * delayScale));
}

export function createScheduleQueue(options: {
  connection: Redis;
  prefix: string;
}): Queue<ScheduleJobData> {
  return new Queue<ScheduleJobData>(SCHEDULE_QUEUE_NAME, {
    connection: options.connection,
    prefix: options.prefix,
    settings: { repeatStrategy: cronRepeatStrategy },
  });
}

/** What a scheduler is made from: the workflow's id and stored config. */
export interface ScheduledWorkflowForScheduler {
  id: string;
  config: Pick<ScheduledWorkflowConfig, "cronExpression" | "timezone" | "isActive">;
}

/**
 * Makes the queue's scheduler match the workflow: an active workflow gets (or keeps) a scheduler
 * on its expression and zone, an inactive or deleted one (`workflow` undefined, with `id`) has
 * none. Upserting an unchanged scheduler keeps its next tick.
 */
export async function syncWorkflowScheduler(
  queue: Queue<ScheduleJobData>,
  id: string,
  workflow: ScheduledWorkflowForScheduler | undefined,
  retryDelayMs: number,
): Promise<void> {
  if (!workflow?.config.isActive) {
    await queue.removeJobScheduler(id);
    return;
  }
  await queue.upsertJobScheduler(
    id,
    { pattern: workflow.config.cronExpression, tz: workflow.config.timezone },
    {
      name: SCHEDULE_JOB_NAME,
      data: { workflowId: id },
      opts: {
        attempts: SCHEDULED_CALL_ATTEMPTS,
        backoff: { type: "exponential", delay: retryDelayMs },
        removeOnComplete: true,
        removeOnFail: true,
      },
    },
  );
}

/** Whether the stored scheduler already matches the workflow (the sweeper's check). */
export async function schedulerMatches(
  queue: Queue<ScheduleJobData>,
  workflow: ScheduledWorkflowForScheduler,
): Promise<boolean> {
  const scheduler = await queue.getJobScheduler(workflow.id);
  if (!scheduler) return false;
  return (
    scheduler.pattern === workflow.config.cronExpression &&
    (scheduler.tz ?? "UTC") === workflow.config.timezone
  );
}

/** The tick time a scheduler job stands for. */
export function tickTimeOf(job: {
  id?: string | undefined;
  opts: { prevMillis?: number };
  timestamp: number;
}): Date {
  if (typeof job.opts.prevMillis === "number") return new Date(job.opts.prevMillis);
  const millis = Number(job.id?.slice(job.id.lastIndexOf(":") + 1));
  return new Date(Number.isFinite(millis) ? millis : job.timestamp);
}
