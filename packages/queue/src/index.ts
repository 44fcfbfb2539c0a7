export * from "./delivery-jobs.js";
export * from "./delivery-queues.js";
export * from "./redis-keys.js";
export * from "./webhook-changed.js";
