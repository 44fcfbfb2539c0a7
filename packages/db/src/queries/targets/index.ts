export * from "./find-overdue-target-deliveries.js";
export * from "./record-target-attempt.js";
export * from "./record-target-notification.js";
export * from "./target-deliveries.js";
export * from "./target-records.js";
