import { z } from "zod";

export const DELIVER_JOB = "deliver";

/**
 * The delivery job. The job id is the event id, so enqueueing an event twice (sweeper, replay
 * racing a retry) never creates two live jobs. It names the event and nothing more: the worker
 * reads the event (its status decides whether to deliver at all) and takes the body from that
 * same read, so the body is not written to, kept in and read back from Redis as well
 * (docs/decisions.md, "A job names its event; the body stays in Postgres"). A job enqueued with a `body` field by an
 * earlier version parses to the same job: the field is dropped and the stored body is used.
 */
export const DeliverJobData = z.object({
  eventId: z.string(),
  webhookId: z.string(),
  /**
   * Set on a job that resumes a parked path (delay, rate-limiter queue, approval decision or
   * timeout, merge): the `event_parks` row to continue from. Its job id is `park-<parkId>`, so a
   * park is resumed by at most one live job.
   */
  parkId: z.string().optional(),
  /**
   * Set on a job that delivers the event to one additional target (its own retry budget, apart
   * from the event's): job id `tgt-<eventId>-<targetId>`. With `targetFailed`, the job sends that
   * target's `target.failed` notification to the primary URL instead: `tgf-<eventId>-<targetId>`.
   */
  targetId: z.string().optional(),
  targetFailed: z.literal(true).optional(),
});
export type DeliverJobData = z.infer<typeof DeliverJobData>;

export interface DeliveryToEnqueue {
  priority: number;
  data: DeliverJobData;
  delayMs?: number;
}

/**
 * Delivery jobs use the event id; resume jobs `park-<parkId>` (one live job per park). BullMQ
 * refuses custom ids containing `:`.
 */
export function jobIdOf(data: DeliverJobData): string {
  if (data.targetId !== undefined) {
    return `${data.targetFailed ? "tgf" : "tgt"}-${data.eventId}-${data.targetId}`;
  }
  return data.parkId ? `park-${data.parkId}` : data.eventId;
}

/** What a delivery job is made from: the event's key, its webhook and its lane. */
export interface EventForDelivery {
  id: string;
  webhookId: string;
  priority: number;
}

/**
 * The delivery job of an event: the one place that decides a job's lane and data. The ingress,
 * the api's replay, replay-all and test routes, and the sweeper all build their jobs here.
 */
export function deliveryJobOf(event: EventForDelivery): DeliveryToEnqueue {
  return {
    priority: event.priority,
    data: { eventId: event.id, webhookId: event.webhookId },
  };
}
