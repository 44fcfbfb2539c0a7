export * from "./auth-lookups.js";
export * from "./delivery/index.js";
export * from "./events/index.js";
export * from "./identity/index.js";
export * from "./ingress/index.js";
export * from "./webhooks/index.js";
