export * from "./action-context.js";
export * from "./action-links.js";
export * from "./action-runs.js";
