export * from "./action-runs.js";
export * from "./credentials.js";
export * from "./event-steps.js";
export * from "./events.js";
export * from "./identity.js";
export * from "./pipeline.js";
export * from "./scheduled-workflows.js";
export * from "./webhooks.js";
