import { z } from "zod";

/** Priority 1 is the highest (decisions.md section 5). */
export const PRIORITIES = [1, 2, 3, 4, 5] as const;
export type Priority = (typeof PRIORITIES)[number];

/**
 * One BullMQ queue per priority lane. Workers give each lane a share of their concurrency, so a
 * backlog in a low lane never delays priority 1 and no lane starves.
 */
export const LANE_WEIGHTS: Record<Priority, number> = {
  1: 0.4,
  2: 0.22,
  3: 0.18,
  4: 0.12,
  5: 0.08,
};

export function deliveryQueueName(priority: number): string {
  const lane = Math.min(5, Math.max(1, Math.round(priority)));
  return `deliver-p${lane}`;
}

export const DELIVER_JOB = "deliver";

/**
 * The delivery job. The job id is the event id, so enqueueing an event twice (sweeper, replay
 * racing a retry) never creates two live jobs. The body rides along when small, saving the
 * worker a Postgres read on the hot path; without it the worker loads the event.
 */
export const DeliverJobData = z.object({
  eventId: z.string(),
  webhookId: z.string(),
  body: z.string().optional(),
  /**
   * Set on a job that resumes a parked path (delay, rate-limiter queue, approval decision or
   * timeout, merge): the `event_parks` row to continue from. Its job id is `park-<parkId>`, so a
   * park is resumed by at most one live job.
   */
  parkId: z.string().optional(),
});
export type DeliverJobData = z.infer<typeof DeliverJobData>;

/** Bodies up to this size are carried in the job. */
export const INLINE_BODY_MAX_BYTES = 16 * 1024;
