export * from "./access.js";
export * from "./actor.js";
export * from "./context.js";
export * from "./encryption/index.js";
export * from "./fixed-window.js";
export * from "./identity/index.js";
export * from "./turns.js";
export * from "./webhooks/index.js";
