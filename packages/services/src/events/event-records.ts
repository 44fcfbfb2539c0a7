/**
 * The stored shapes the events verbs answer with, for callers that turn them into response
 * bodies (the api's routes) without reaching into @hookflow/db themselves.
 */
export {
  type ActionRunRecord,
  EVENT_STATUSES,
  type EventRow,
  type EventStatus,
  type EventStepRecord,
  type EventSummaryRow,
  type StoredDeliveryAttempt,
  type TargetDeliveryRow,
} from "@hookflow/db";
