import { z } from "zod";

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
  /**
   * Set on a job that delivers the event to one additional target (its own retry budget, apart
   * from the event's): job id `tgt-<eventId>-<targetId>`. With `targetFailed`, the job sends that
   * target's `target.failed` notification to the primary URL instead: `tgf-<eventId>-<targetId>`.
   */
  targetId: z.string().optional(),
  targetFailed: z.literal(true).optional(),
});
export type DeliverJobData = z.infer<typeof DeliverJobData>;

/** Bodies up to this size are carried in the job. */
export const INLINE_BODY_MAX_BYTES = 16 * 1024;

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

/** What a delivery job is made from: an event as stored (its body when loaded). */
export interface EventForDelivery {
  id: string;
  webhookId: string;
  priority: number;
  /** The raw body; null or absent when it was not read (the worker then loads it). */
  body?: string | null;
  /** Its UTF-8 size when the caller already knows it (the ingress does). */
  bodyBytes?: number;
}

/**
 * The delivery job of an event: the one place that decides a job's lane and whether its body
 * rides inline. The ingress, the api's replay, replay-all and test routes, and the sweeper all
 * build their jobs here.
 */
export function deliveryJobOf(event: EventForDelivery): DeliveryToEnqueue {
  const { body } = event;
  const inline =
    typeof body === "string" &&
    (event.bodyBytes ?? Buffer.byteLength(body, "utf8")) <= INLINE_BODY_MAX_BYTES;
  return {
    priority: event.priority,
    data: { eventId: event.id, webhookId: event.webhookId, ...(inline ? { body } : {}) },
  };
}
