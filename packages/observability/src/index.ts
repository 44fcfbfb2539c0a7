export * from "./error-handler.js";
export * from "./http-middleware.js";
export * from "./logger.js";
export * from "./mask-credentials.js";
export * from "./metrics.js";
export * from "./metrics-server.js";
export * from "./tracing.js";
