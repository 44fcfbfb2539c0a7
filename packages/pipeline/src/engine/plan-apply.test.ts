import { EMPTY_PIPELINE_STATE, planApply, predictFinalStatus } from "./plan-apply.js";
import type { PathOutcome } from "./types.js";

const deliver = (pathId: string, body: string | null = null): PathOutcome => ({
  kind: "deliver",
  pathId,
  payload: {},
  body,
});
const failed = (failure: "validation" | "transform"): PathOutcome => ({
  kind: "failed",
  pathId: "p",
  nodeId: "n",
  nodeType: failure === "validation" ? "schemaValidator" : "transform",
  error: `${failure} broke`,
  failure,
});
const blocked: PathOutcome = {
  kind: "blocked",
  pathId: "b",
  nodeId: "f",
  nodeType: "filter",
  reason: "no",
};
const parked = (park: "delay" | "approval" | "merge"): PathOutcome => ({
  kind: "parked",
  pathId: "q",
  nodeId: `${park}_1`,
  nodeType: park,
  park,
  resumeAt: 0,
  payload: {},
  body: null,
  state: {},
});
const forward: PathOutcome = {
  kind: "forward",
  pathId: "r",
  webhookId: "wh_2",
  viaNodeId: "rtr",
  viaNodeType: "router",
  payload: {},
  body: null,
};

describe("planApply", () => {
  it("lets the first ended path deliver as the event and the others as child events", () => {
    const plan = planApply({
      state: null,
      outcomes: [deliver("a", "A"), deliver("b", "B")],
      waitingParks: [],
    });
    expect(plan.event).toEqual({ kind: "deliver", body: "A" });
    expect(plan.children.map((c) => c.pathId)).toEqual(["b"]);
    expect(plan.state).toMatchObject({ claimed: true, children: 1 });
  });

  it("delivers later paths as children once the event was claimed", () => {
    const plan = planApply({
      state: { ...EMPTY_PIPELINE_STATE, claimed: true },
      outcomes: [deliver("late")],
      waitingParks: [],
    });
    expect(plan.event).toEqual({ kind: "unchanged" });
    expect(plan.children).toHaveLength(1);
  });

  it("keeps the event parked while any path waits, with every kind's flag", () => {
    const plan = planApply({
      state: null,
      outcomes: [blocked, parked("approval")],
      waitingParks: [{ kind: "merge", nodeType: "merge", nodeId: "merge_0" }],
    });
    expect(plan.event).toEqual({
      kind: "parked",
      awaitingApproval: true,
      awaitingMerge: true,
      delayed: false,
      parkedAt: { nodeType: "merge", nodeId: "merge_0" },
    });
    expect(plan.parks).toHaveLength(1);
  });

  it("does not park an event a path already delivers", () => {
    const plan = planApply({
      state: null,
      outcomes: [deliver("a"), parked("delay")],
      waitingParks: [],
    });
    expect(plan.event.kind).toBe("deliver");
    expect(plan.parks).toHaveLength(1);
  });

  const settles: Array<[string, PathOutcome[], string, number]> = [
    ["delivered when a path was forwarded", [forward, failed("validation")], "delivered", 200],
    [
      "failed with 422 when validation failed first",
      [failed("validation"), failed("transform")],
      "failed",
      422,
    ],
    ["failed with 502 on a transform error", [blocked, failed("transform")], "failed", 502],
    ["filtered when every path was blocked", [blocked], "filtered", 200],
  ];
  it.each(settles)("settles %s", (_name, outcomes, status, syncStatus) => {
    const plan = planApply({ state: null, outcomes, waitingParks: [] });
    expect(plan.event).toMatchObject({ kind: "settle", status, syncStatus });
  });

  it("settles with the first failure recorded by an earlier job", () => {
    const first = planApply({
      state: null,
      outcomes: [failed("transform"), parked("delay")],
      waitingParks: [],
    });
    expect(first.event.kind).toBe("parked");
    const second = planApply({ state: first.state, outcomes: [blocked], waitingParks: [] });
    expect(second.event).toEqual({
      kind: "settle",
      status: "failed",
      lastError: "transform broke",
      syncStatus: 502,
      failureKind: "transform",
    });
  });
});

describe("planApply with merges", () => {
  const mergeParked = (nodeId: string): PathOutcome => ({ ...(parked("merge") as Parked), nodeId });
  type Parked = Extract<PathOutcome, { kind: "parked" }>;

  it("resolves the arrivals still waiting at a merge that went on", () => {
    const plan = planApply({
      state: null,
      outcomes: [deliver("m")],
      mergesSettled: [{ nodeId: "mrg_1", result: "done" }],
      waitingParks: [{ kind: "merge", nodeType: "merge", nodeId: "mrg_1" }],
    });
    expect(plan.resolveMerges).toEqual([{ nodeId: "mrg_1", status: "resumed" }]);
    expect(plan.state.merges).toEqual({ mrg_1: "done" });
    expect(plan.event.kind).toBe("deliver");
  });

  it("stores a late arrival at a merge that already went on as resolved, not waiting", () => {
    const earlier = { ...EMPTY_PIPELINE_STATE, merges: { mrg_1: "done" as const } };
    const plan = planApply({ state: earlier, outcomes: [mergeParked("mrg_1")], waitingParks: [] });
    expect(plan.parks.map((p) => p.status)).toEqual(["resumed"]);
    expect(plan.event).toMatchObject({ kind: "settle", status: "filtered" });
  });

  it("fails the event once a merge expired and nothing else waits", () => {
    const plan = planApply({
      state: null,
      outcomes: [
        {
          kind: "failed",
          pathId: "p",
          nodeId: "mrg_1",
          nodeType: "merge",
          error: "merge timed out",
          failure: "merge_timeout",
        },
      ],
      mergesSettled: [{ nodeId: "mrg_1", result: "expired" }],
      waitingParks: [{ kind: "merge", nodeType: "merge", nodeId: "mrg_1" }],
    });
    expect(plan.resolveMerges).toEqual([{ nodeId: "mrg_1", status: "expired" }]);
    expect(plan.event).toMatchObject({ kind: "settle", status: "failed", syncStatus: 502 });
  });
});

describe("predictFinalStatus", () => {
  it.each([
    [[deliver("a"), failed("transform")], "delivered"],
    [[parked("approval"), blocked], "pending"],
    [[failed("validation"), blocked], "failed"],
    [[blocked], "filtered"],
  ] as Array<[PathOutcome[], string]>)("%j -> %s", (outcomes, expected) => {
    expect(predictFinalStatus(outcomes)).toBe(expected);
  });
});
