export * from "./families/common.js";
export * from "./families/definitions.js";
export * from "./families/parse-node-input.js";
export * from "./families/registry.js";
export * from "./nodes.js";
export * from "./steps.js";
