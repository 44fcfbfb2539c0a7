export * from "./access.js";
export * from "./actor.js";
export * from "./approvals/index.js";
export * from "./canvas/index.js";
export * from "./context.js";
export * from "./credentials/index.js";
