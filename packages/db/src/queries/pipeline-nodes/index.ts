export * from "./find-pipeline-nodes.js";
export * from "./list-pipeline-nodes.js";
export * from "./node-rows.js";
export * from "./write-pipeline-nodes.js";
