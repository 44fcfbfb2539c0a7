import type { deliveryAttempts, events } from "../../schema/index.js";

export type EventRow = typeof events.$inferSelect;
export type StoredDeliveryAttempt = typeof deliveryAttempts.$inferSelect;

export { EVENT_STATUSES, type EventStatus } from "@hookflow/domain";
