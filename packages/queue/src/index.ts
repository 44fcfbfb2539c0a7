export * from "./delivery-jobs.js";
export * from "./delivery-queues.js";
export * from "./lua-script.js";
export * from "./park-resume.js";
export * from "./redis-keys.js";
export * from "./steps/index.js";
export * from "./webhook-changed.js";
