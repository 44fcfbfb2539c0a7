export * from "./delivery/index.js";
export * from "./errors.js";
export * from "./hash-token.js";
export * from "./identity/password.js";
export * from "./ids.js";
export * from "./signing/index.js";
export * from "./webhooks/index.js";
export * from "./zod-issues.js";
