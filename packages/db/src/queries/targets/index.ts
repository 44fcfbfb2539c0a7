export * from "./find-overdue-target-deliveries.js";
export * from "./target-deliveries.js";
export * from "./target-records.js";
