/**
 * Event statuses (docs/decisions.md, "Delivery"): every list of statuses in the code is one of
 * these, so a new status is added in one place.
 */
export const EVENT_STATUSES = [
  "pending",
  "retrying",
  "delivered",
  "failed",
  "filtered",
  "cancelled",
] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** Statuses from which nothing happens until a replay (a replay starts only from these). */
export const FINAL_STATUSES = ["delivered", "failed", "filtered", "cancelled"] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];

/** Statuses with delivery work still ahead (the only ones that may be cancelled). */
export const OPEN_STATUSES = ["pending", "retrying"] as const;
export type OpenStatus = (typeof OPEN_STATUSES)[number];

/**
 * An additional target's own delivery with an event (docs/decisions.md, "Additional targets"):
 * pending -> retrying -> delivered | failed, apart from the event's status.
 */
export const TARGET_DELIVERY_STATUSES = ["pending", "retrying", "delivered", "failed"] as const;
export type TargetDeliveryStatus = (typeof TARGET_DELIVERY_STATUSES)[number];

/** A target delivery with tries still ahead (the sweeper's and the cancel's scope). */
export const TARGET_OPEN_STATUSES = [
  "pending",
  "retrying",
] as const satisfies readonly TargetDeliveryStatus[];

/** The `target.failed` notification to the primary URL, when a target asks for one. */
export const TARGET_NOTIFY_STATUSES = ["pending", "sent", "failed"] as const;
export type TargetNotifyStatus = (typeof TARGET_NOTIFY_STATUSES)[number];

/**
 * Which target a delivery run is on: the primary until its budget is spent, then the fallback
 * (docs/decisions.md, "Retries, fallback and the target guard").
 */
export const DELIVERY_PHASES = ["primary", "fallback"] as const;
export type DeliveryPhase = (typeof DELIVERY_PHASES)[number];

/** The event type: top-level `type`, else `event`, when it is a string. */
export function eventTypeOf(payload: unknown): string | null {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null;
  const record = payload as Record<string, unknown>;
  if (typeof record.type === "string") return record.type;
  if (typeof record.event === "string") return record.event;
  return null;
}
