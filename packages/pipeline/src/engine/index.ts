export * from "./dry-run.js";
export { EXECUTORS, MERGE_TIMEOUT_SECONDS } from "./families/index.js";
export * from "./node-result.js";
export * from "./plan-apply.js";
export * from "./run-pipeline.js";
export * from "./types.js";
