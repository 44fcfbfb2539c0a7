export * from "./errors.js";
export * from "./hash-token.js";
export * from "./ids.js";
export * from "./zod-issues.js";
