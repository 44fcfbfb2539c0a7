export * from "./access.js";
export * from "./actions/index.js";
export * from "./actor.js";
export * from "./context.js";
export * from "./nodes/index.js";
export * from "./schedules/index.js";
export * from "./targets/index.js";
