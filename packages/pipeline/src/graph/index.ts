export * from "./build-graph.js";
export * from "./forward-reach.js";
export * from "./graph-order.js";
