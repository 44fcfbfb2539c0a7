import { makeNode } from "../testing/node-fixtures.js";
import { passesFilterNode, selectRoute } from "./filter-node.js";
import { arriveAtMerge, expireMerge, type MergeArrival, type MergeState } from "./merge.js";
import { decideRateLimit } from "./rate-limit.js";

describe("passesFilterNode", () => {
  const rules = [
    { field: "type", operator: "eq" as const, value: "order" },
    { field: "total", operator: "gt" as const, value: "100" },
  ];
  const cases: Array<["and" | "or", unknown, boolean]> = [
    ["and", { type: "order", total: 150 }, true],
    ["and", { type: "order", total: 50 }, false],
    ["or", { type: "order", total: 50 }, true],
    ["or", { type: "refund", total: 50 }, false],
  ];
  it.each(cases)("mode %s with %j -> %s", (filterMode, payload, expected) => {
    const node = makeNode("filter", "fltn_1", { filterMode, filters: rules });
    expect(passesFilterNode(node.config, payload)).toBe(expected);
  });
});

describe("selectRoute", () => {
  const node = makeNode("router", "rtr_1", {
    routes: [
      { field: "type", operator: "eq", value: "a", outputWebhookId: "wh_a" },
      { field: "type", operator: "exists", outputWebhookId: "wh_any" },
    ],
  });

  it("takes the first matching route in order", () => {
    expect(selectRoute(node.config, { type: "a" })?.outputWebhookId).toBe("wh_a");
    expect(selectRoute(node.config, { type: "b" })?.outputWebhookId).toBe("wh_any");
  });

  it("finds no route when none matches", () => {
    expect(selectRoute(node.config, { other: 1 })).toBeUndefined();
  });
});

describe("decideRateLimit", () => {
  const base = { maxEvents: 2, windowSeconds: 10, maxQueueDelaySeconds: 30 };

  it("passes an allowed arrival", () => {
    const { config } = makeNode("rateLimiter", "rln", base);
    expect(decideRateLimit(config, { allowed: true }, { now: 0, deadline: 0 })).toEqual({
      kind: "pass",
    });
  });

  it("drops an excess arrival with overflowAction drop", () => {
    const { config } = makeNode("rateLimiter", "rln", { ...base, overflowAction: "drop" });
    const decision = decideRateLimit(
      config,
      { allowed: false, retryAfterMs: 100 },
      { now: 0, deadline: 30_000 },
    );
    expect(decision.kind).toBe("drop");
  });

  it("queues an excess arrival until the next free slot", () => {
    const { config } = makeNode("rateLimiter", "rln", { ...base, overflowAction: "queue" });
    expect(
      decideRateLimit(
        config,
        { allowed: false, retryAfterMs: 500 },
        { now: 1000, deadline: 31_000 },
      ),
    ).toEqual({ kind: "queue", resumeAt: 1500 });
  });

  it("drops a queued arrival whose next slot lies past the deadline", () => {
    const { config } = makeNode("rateLimiter", "rln", { ...base, overflowAction: "queue" });
    const decision = decideRateLimit(
      config,
      { allowed: false, retryAfterMs: 5000 },
      { now: 30_000, deadline: 31_000 },
    );
    expect(decision.kind).toBe("drop");
  });
});

describe("arriveAtMerge", () => {
  const arrival = (branchId: string, mode: MergeArrival["mode"] = "wait_all"): MergeArrival => ({
    runId: "run",
    eventId: "evt",
    nodeId: "mrg",
    branchId,
    mode,
    expectedBranchCount: 2,
    payload: JSON.stringify({ from: branchId }),
  });

  it("waits for every branch, then completes once with the payloads in arrival order", () => {
    const state: MergeState = { arrivals: [] };
    expect(arriveAtMerge(state, arrival("b"))).toEqual({ kind: "waiting", arrived: 1 });
    expect(arriveAtMerge(state, arrival("a"))).toEqual({
      kind: "complete",
      payloads: ['{"from":"b"}', '{"from":"a"}'],
    });
    expect(arriveAtMerge(state, arrival("c"))).toEqual({ kind: "late" });
  });

  it("counts a branch that arrives twice once", () => {
    const state: MergeState = { arrivals: [] };
    arriveAtMerge(state, arrival("a"));
    expect(arriveAtMerge(state, arrival("a"))).toEqual({ kind: "waiting", arrived: 1 });
  });

  it("answers the completing branch the same way when it arrives again", () => {
    const state: MergeState = { arrivals: [] };
    arriveAtMerge(state, arrival("a"));
    const first = arriveAtMerge(state, arrival("b"));
    expect(arriveAtMerge(state, arrival("b"))).toEqual(first);
  });

  it("lets only the first branch through in first mode", () => {
    const state: MergeState = { arrivals: [] };
    expect(arriveAtMerge(state, arrival("a", "first"))).toEqual({ kind: "first" });
    expect(arriveAtMerge(state, arrival("b", "first"))).toEqual({ kind: "late" });
    expect(arriveAtMerge(state, arrival("a", "first"))).toEqual({ kind: "first" });
  });

  it("expires a merge that has not gone on, after which arrivals are late", () => {
    const state: MergeState = { arrivals: [] };
    arriveAtMerge(state, arrival("a"));
    expect(expireMerge(state)).toBe(true);
    expect(arriveAtMerge(state, arrival("b"))).toEqual({ kind: "late" });
  });

  it("does not expire a merge that already went on", () => {
    const state: MergeState = { arrivals: [] };
    arriveAtMerge(state, arrival("a"));
    arriveAtMerge(state, arrival("b"));
    expect(expireMerge(state)).toBe(false);
  });
});
