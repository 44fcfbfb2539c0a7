export * from "./action-context.js";
export * from "./action-runs.js";
