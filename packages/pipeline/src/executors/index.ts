export * from "./filter-node.js";
export * from "./inline-patterns.js";
export * from "./merge.js";
export * from "./rate-limit.js";
export * from "./schema-validator.js";
export * from "./strict-mode.js";
export * from "./value-formats.js";
