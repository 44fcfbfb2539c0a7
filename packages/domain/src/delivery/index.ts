export * from "./attempt-outcome.js";
export * from "./backoff.js";
export * from "./circuit-breaker.js";
export * from "./event-status.js";
export * from "./health.js";
export * from "./payload-filter.js";
export * from "./private-address.js";
