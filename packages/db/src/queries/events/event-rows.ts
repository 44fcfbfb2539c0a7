import type { deliveryAttempts, events } from "../../schema/index.js";

export type EventRow = typeof events.$inferSelect;
export type StoredDeliveryAttempt = typeof deliveryAttempts.$inferSelect;

/** The statuses of decisions.md section 4. */
export const EVENT_STATUSES = [
  "pending",
  "retrying",
  "delivered",
  "failed",
  "filtered",
  "cancelled",
] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** Statuses a replay may start from. */
export const FINAL_EVENT_STATUSES = ["delivered", "failed", "filtered", "cancelled"] as const;
/** Statuses a cancel may start from. */
export const OPEN_EVENT_STATUSES = ["pending", "retrying"] as const;
