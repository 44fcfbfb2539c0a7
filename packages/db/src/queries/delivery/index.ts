export * from "./circuit-state.js";
export * from "./find-delivery-event.js";
export * from "./find-delivery-webhook.js";
export * from "./find-overdue-events.js";
export * from "./record-delivery-attempt.js";
export * from "./record-delivery-attempts.js";
