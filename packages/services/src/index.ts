export * from "./access.js";
export * from "./actor.js";
export * from "./context.js";
export * from "./events/index.js";
