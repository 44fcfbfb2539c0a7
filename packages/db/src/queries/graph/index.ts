export * from "./apply-resumed-park.js";
export * from "./claim-forwards.js";
export * from "./claim-pipeline-run.js";
export * from "./find-webhook-graph.js";
export * from "./find-webhook-name.js";
export * from "./write-pipeline-apply.js";
