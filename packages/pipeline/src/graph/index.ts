export * from "./build-graph.js";
export * from "./graph-order.js";
