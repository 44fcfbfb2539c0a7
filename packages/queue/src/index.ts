export * from "./actions/index.js";
export * from "./delivery/index.js";
export * from "./lua-script.js";
export * from "./redis-keys.js";
export * from "./schedules/index.js";
export * from "./steps/index.js";
export * from "./subscribe-after-handshake.js";
export * from "./webhook-changed.js";
