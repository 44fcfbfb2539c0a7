import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { z } from "zod";

/** The queue of post-delivery action runs (docs/decisions.md, Post-delivery actions). */
export const ACTION_QUEUE = "actions";
export const ACTION_JOB = "action-run";

/** Tries of one action run: the first and three retries. */
export const ACTION_TRIES = 4;

/**
 * One action run for one event. Small fields only: the worker loads the action, the event's
 * payload and the delivery's last response when it runs.
 */
export const ActionJobData = z.object({
  actionId: z.string(),
  eventId: z.string(),
  webhookId: z.string(),
  /** The delivery's outcome that fired it. */
  trigger: z.enum(["success", "failure"]),
});
export type ActionJobData = z.infer<typeof ActionJobData>;

/**
 * One live job per (action, event): triggering the action again while its job exists adds
 * nothing. Whether it already ran is decided by its `action_runs` row, not by the job id (a
 * finished job is removed). BullMQ refuses `:` in custom ids.
 */
export function actionJobId(data: Pick<ActionJobData, "actionId" | "eventId">): string {
  return `act-${data.actionId}-${data.eventId}`;
}

/** Backoff between tries: 2 s, 4 s, 8 s at `HOOKFLOW_DELAY_SCALE` 1, never under 100 ms. */
export function actionBackoffMs(delayScale: number): number {
  return Math.max(100, Math.round(2_000 * delayScale));
}

export function createActionQueue(options: {
  connection: Redis;
  prefix: string;
  delayScale: number;
}): Queue<ActionJobData> {
  return new Queue<ActionJobData>(ACTION_QUEUE, {
    connection: options.connection,
    prefix: options.prefix,
    defaultJobOptions: {
      removeOnComplete: true,
      removeOnFail: true,
      attempts: ACTION_TRIES,
      backoff: { type: "exponential", delay: actionBackoffMs(options.delayScale) },
    },
  });
}

/** Adds the runs, one job each, with their stable ids. */
export async function enqueueActionRuns(
  queue: Queue<ActionJobData>,
  runs: readonly ActionJobData[],
): Promise<void> {
  if (runs.length === 0) return;
  await queue.addBulk(
    runs.map((data) => ({ name: ACTION_JOB, data, opts: { jobId: actionJobId(data) } })),
  );
}
