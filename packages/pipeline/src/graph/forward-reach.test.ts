import type { PipelineNode } from "../nodes.js";
import { fromNode, fromWebhook, makeNode } from "../testing/node-fixtures.js";
import { measureForwardReach } from "./forward-reach.js";

const limiter = (id: string, from: string, outputs: string[]) =>
  makeNode("rateLimiter", id, { maxEvents: 1, windowSeconds: 1, outputWebhookIds: outputs }, [
    fromWebhook(from),
  ]);
const router = (id: string, from: string, targets: string[]) =>
  makeNode(
    "router",
    id,
    { routes: targets.map((t) => ({ field: "a", operator: "exists", outputWebhookId: t })) },
    [fromWebhook(from)],
  );
const filter = (id: string, inputs: ReturnType<typeof fromWebhook>[]) =>
  makeNode("filter", id, { filters: [{ field: "a", operator: "exists" }] }, inputs);

function reach(
  nodes: PipelineNode[],
  options: { max?: number; depth?: number; out?: string[] } = {},
) {
  const outside = new Set(options.out ?? []);
  return measureForwardReach({
    nodes,
    forwardable: (id) => !outside.has(id),
    maxDescendants: options.max ?? 100,
    maxDepth: options.depth ?? 5,
  });
}

describe("measureForwardReach", () => {
  it("counts nothing for a webhook without forwarding nodes", () => {
    expect(reach([filter("fltn_1", [fromWebhook("wh_a")])])("wh_a")).toEqual({
      descendants: 0,
      depth: 0,
    });
  });

  it("adds a limiter's outputs and their own descendants, level by level", () => {
    const nodes = [
      limiter("rln_a", "wh_a", ["wh_b", "wh_c"]),
      limiter("rln_b", "wh_b", ["wh_d", "wh_e", "wh_f"]),
    ];
    // wh_a -> {wh_b -> {d, e, f}, wh_c}: 2 + 3 events, two levels.
    expect(reach(nodes)("wh_a")).toEqual({ descendants: 5, depth: 2 });
    expect(reach(nodes)("wh_b")).toEqual({ descendants: 3, depth: 1 });
  });

  it("takes a router's furthest-spreading route, since one event takes one route", () => {
    const nodes = [
      router("rtr_a", "wh_a", ["wh_b", "wh_c"]),
      limiter("rln_c", "wh_c", ["wh_d", "wh_e"]),
    ];
    expect(reach(nodes)("wh_a")).toEqual({ descendants: 3, depth: 2 });
  });

  it("counts a forwarding node once per path that reaches it, and once after a merge", () => {
    const left = filter("fltn_l", [fromWebhook("wh_a")]);
    const right = filter("fltn_r", [fromWebhook("wh_a")]);
    const fanIn = makeNode(
      "rateLimiter",
      "rln_x",
      { maxEvents: 1, windowSeconds: 1, outputWebhookIds: ["wh_b"] },
      [fromNode(left), fromNode(right)],
    );
    expect(reach([left, right, fanIn])("wh_a").descendants).toBe(2);
    const merge = makeNode("merge", "mrg_1", {}, [fromNode(left), fromNode(right)]);
    const afterMerge = makeNode(
      "rateLimiter",
      "rln_y",
      { maxEvents: 1, windowSeconds: 1, outputWebhookIds: ["wh_b"] },
      [fromNode(merge)],
    );
    expect(reach([left, right, merge, afterMerge])("wh_a").descendants).toBe(1);
  });

  it("leaves out forwards to webhooks of another owner scope (the worker blocks them)", () => {
    const nodes = [limiter("rln_a", "wh_a", ["wh_b", "wh_foreign"])];
    expect(reach(nodes, { out: ["wh_foreign"] })("wh_a")).toEqual({ descendants: 1, depth: 1 });
  });

  it("saturates just past the limits however large the graph grows", () => {
    // Four levels of ten outputs each: 10 + 100 + 1000 + 10000 events without a bound.
    const levels = ["a", "b", "c", "d", "e"];
    const nodes = levels.slice(0, 4).flatMap((level, i) => {
      const next = levels[i + 1] as string;
      const targets = Array.from({ length: 10 }, (_, k) => `wh_${next}${k}`);
      const sources = i === 0 ? ["wh_a0"] : Array.from({ length: 10 }, (_, k) => `wh_${level}${k}`);
      return sources.map((source) => limiter(`rln_${source}`, source, targets));
    });
    expect(reach(nodes, { max: 100, depth: 3 })("wh_a0")).toEqual({ descendants: 101, depth: 4 });
  });

  it("reports a forward cycle as past both limits", () => {
    const nodes = [limiter("rln_a", "wh_a", ["wh_b"]), limiter("rln_b", "wh_b", ["wh_a"])];
    expect(reach(nodes, { max: 10, depth: 3 })("wh_a")).toEqual({ descendants: 11, depth: 4 });
  });
});
