import { fromNode, fromWebhook, makeNode } from "../testing/node-fixtures.js";
import { buildGraph } from "./build-graph.js";
import { findCycle, reachableFrom } from "./graph-order.js";

const filterOf = (id: string, inputs: ReturnType<typeof fromWebhook>[]) =>
  makeNode("filter", id, { filters: [{ field: "a", operator: "exists" }] }, inputs);

describe("buildGraph", () => {
  it("derives edges from inputNodes, router routes and rate limiter outputs", () => {
    const router = makeNode(
      "router",
      "rtr_1",
      { routes: [{ field: "a", operator: "exists", outputWebhookId: "wh_b" }] },
      [fromWebhook("wh_a")],
    );
    const transform = makeNode("transform", "trn_1", { transformMode: "jq", template: "." });
    const limiter = makeNode(
      "rateLimiter",
      "rln_1",
      { maxEvents: 1, windowSeconds: 1, outputTransformIds: ["trn_1"], outputWebhookIds: ["wh_c"] },
      [fromWebhook("wh_a")],
    );
    const graph = buildGraph([router, transform, limiter]);
    expect(graph.outgoing.get("wh_a")).toEqual([
      { from: "wh_a", to: "rtr_1", kind: "flow" },
      { from: "wh_a", to: "rln_1", kind: "flow" },
    ]);
    expect(graph.outgoing.get("rtr_1")).toEqual([{ from: "rtr_1", to: "wh_b", kind: "forward" }]);
    expect(graph.outgoing.get("rln_1")).toEqual([
      { from: "rln_1", to: "trn_1", kind: "flow" },
      { from: "rln_1", to: "wh_c", kind: "forward" },
    ]);
    expect(graph.vertices).toEqual(["rtr_1", "trn_1", "rln_1", "wh_a", "wh_b", "wh_c"]);
  });

  it("keeps an edge declared twice only once", () => {
    const limiter = makeNode("rateLimiter", "rln_1", {
      maxEvents: 1,
      windowSeconds: 1,
      outputTransformIds: ["trn_1"],
    });
    const transform = makeNode("transform", "trn_1", { transformMode: "jq", template: "." }, [
      fromNode(limiter),
    ]);
    const graph = buildGraph([limiter, transform]);
    expect(graph.incoming.get("trn_1")).toHaveLength(1);
  });
});

describe("findCycle", () => {
  it("finds nothing in a diamond", () => {
    const a = filterOf("fltn_a", [fromWebhook("wh_1")]);
    const b = filterOf("fltn_b", [fromWebhook("wh_1")]);
    const merge = makeNode("merge", "mrg_1", {}, [fromNode(a), fromNode(b)]);
    expect(findCycle(buildGraph([a, b, merge]))).toBeUndefined();
  });

  it("finds a cycle of inputNodes", () => {
    const a = makeNode("filter", "fltn_a", { filters: [{ field: "x", operator: "exists" }] }, [
      fromWebhook("wh_1"),
      { nodeType: "filter", nodeId: "fltn_c" },
    ]);
    const b = filterOf("fltn_b", [fromNode(a)]);
    const c = filterOf("fltn_c", [fromNode(b)]);
    const cycle = findCycle(buildGraph([a, b, c]));
    expect(cycle).toBeDefined();
    expect(new Set(cycle)).toEqual(new Set(["fltn_a", "fltn_b", "fltn_c"]));
  });

  it("finds a node that is its own input", () => {
    const a = filterOf("fltn_a", [{ nodeType: "filter", nodeId: "fltn_a" }]);
    expect(findCycle(buildGraph([a]))).toEqual(["fltn_a"]);
  });

  it("finds a cycle through a router forwarding into its own webhook", () => {
    const router = makeNode(
      "router",
      "rtr_1",
      { routes: [{ field: "a", operator: "exists", outputWebhookId: "wh_1" }] },
      [fromWebhook("wh_1")],
    );
    expect(findCycle(buildGraph([router]))).toEqual(["rtr_1", "wh_1"]);
  });

  it("finds a cycle across two webhooks through routers and a rate limiter", () => {
    const router = makeNode(
      "router",
      "rtr_1",
      { routes: [{ field: "a", operator: "exists", outputWebhookId: "wh_2" }] },
      [fromWebhook("wh_1")],
    );
    const limiter = makeNode(
      "rateLimiter",
      "rln_1",
      { maxEvents: 1, windowSeconds: 1, outputWebhookIds: ["wh_1"] },
      [fromWebhook("wh_2")],
    );
    const cycle = findCycle(buildGraph([router, limiter]));
    expect(new Set(cycle)).toEqual(new Set(["wh_1", "rtr_1", "wh_2", "rln_1"]));
  });

  it("accepts a router forwarding to a webhook that does not lead back", () => {
    const router = makeNode(
      "router",
      "rtr_1",
      { routes: [{ field: "a", operator: "exists", outputWebhookId: "wh_2" }] },
      [fromWebhook("wh_1")],
    );
    const downstream = filterOf("fltn_a", [fromWebhook("wh_2")]);
    expect(findCycle(buildGraph([router, downstream]))).toBeUndefined();
  });
});

describe("reachableFrom", () => {
  it("lists the nodes reachable along flow edges in topological order", () => {
    // Given in an order that is not topological: c depends on a and b.
    const c = makeNode("merge", "mrg_c", {}, [
      { nodeType: "filter", nodeId: "fltn_a" },
      { nodeType: "transform", nodeId: "trn_b" },
    ]);
    const b = makeNode("transform", "trn_b", { transformMode: "jq", template: "." }, [
      { nodeType: "filter", nodeId: "fltn_a" },
    ]);
    const a = filterOf("fltn_a", [fromWebhook("wh_1")]);
    const other = filterOf("fltn_other", [fromWebhook("wh_2")]);
    const graph = buildGraph([c, other, b, a]);
    expect(reachableFrom(graph, "wh_1")).toEqual(["fltn_a", "trn_b", "mrg_c"]);
    expect(reachableFrom(graph, "wh_2")).toEqual(["fltn_other"]);
    expect(reachableFrom(graph, "wh_unknown")).toEqual([]);
  });

  it("follows a rate limiter into its output transforms but not into its output webhooks", () => {
    const limiter = makeNode(
      "rateLimiter",
      "rln_1",
      { maxEvents: 1, windowSeconds: 1, outputTransformIds: ["trn_1"], outputWebhookIds: ["wh_2"] },
      [fromWebhook("wh_1")],
    );
    const transform = makeNode("transform", "trn_1", { transformMode: "jq", template: "." });
    const inOther = filterOf("fltn_2", [fromWebhook("wh_2")]);
    const graph = buildGraph([transform, limiter, inOther]);
    expect(reachableFrom(graph, "wh_1")).toEqual(["rln_1", "trn_1"]);
  });

  it("breaks ties between independent nodes by the order they were given", () => {
    const nodes = ["fltn_3", "fltn_1", "fltn_2"].map((id) => filterOf(id, [fromWebhook("wh_1")]));
    expect(reachableFrom(buildGraph(nodes), "wh_1")).toEqual(["fltn_3", "fltn_1", "fltn_2"]);
  });
});
