import { buildGraph } from "../graph/build-graph.js";
import type { PipelineNode } from "../nodes.js";
import { type FakePorts, fakePorts } from "../testing/fake-ports.js";
import { fromNode, fromWebhook, makeNode } from "../testing/node-fixtures.js";
import { createDryRunPorts } from "./dry-run.js";
import { runPipeline } from "./run-pipeline.js";
import type { EnginePorts, PathOutcome, RunStart } from "./types.js";

const W = "wh_main";
type Parked = Extract<PathOutcome, { kind: "parked" }>;

function run(nodes: PipelineNode[], start: RunStart, ports: EnginePorts, runId = "run_1") {
  return runPipeline(
    { eventId: "evt_1", webhookId: W, eventType: null, runId, graph: buildGraph(nodes), start },
    ports,
  );
}

const fromStart = (payload: unknown): RunStart => ({
  kind: "webhook",
  payload,
  payloadFilters: [],
});

function resumeOf(
  parked: PathOutcome,
  decision: Extract<RunStart, { kind: "resume" }>["decision"],
): RunStart {
  const p = parked as Parked;
  return {
    kind: "resume",
    nodeId: p.nodeId,
    park: p.park,
    path: { id: p.pathId, payload: p.payload, body: p.body },
    state: p.state,
    decision,
  };
}

const identity = (id: string, inputs: PipelineNode[] | "webhook") =>
  makeNode(
    "transform",
    id,
    { transformMode: "jq", template: "add-flag" },
    inputs === "webhook" ? [fromWebhook(W)] : inputs.map(fromNode),
  );

describe("delay nodes", () => {
  it("resume where they parked and go on to the end of the path", async () => {
    const d = makeNode("delay", "dly_1", { delaySeconds: 5 }, [fromWebhook(W)]);
    const t = identity("trn_1", [d]);
    const ports = fakePorts();
    const first = await run([d, t], fromStart({ a: 1 }), ports);
    expect(ports.transformCalls).toEqual([]);
    ports.clock.now += 5000;
    const second = await run(
      [d, t],
      resumeOf(first.outcomes[0] as PathOutcome, { kind: "continue" }),
      ports,
    );
    expect(second.outcomes).toMatchObject([{ kind: "deliver", payload: { a: 1, flagged: true } }]);
    expect(second.steps.map((s) => `${s.nodeId}:${s.status}`)).toEqual([
      "dly_1:success",
      "trn_1:running",
      "trn_1:success",
    ]);
    expect(second.steps[0]?.durationMs).toBe(5000);
  });

  it("fail the path when the parked node was deleted meanwhile", async () => {
    const d = makeNode("delay", "dly_1", { delaySeconds: 5 }, [fromWebhook(W)]);
    const ports = fakePorts();
    const first = await run([d], fromStart({}), ports);
    const second = await run(
      [],
      resumeOf(first.outcomes[0] as PathOutcome, { kind: "continue" }),
      ports,
    );
    expect(second.outcomes).toMatchObject([{ kind: "failed", failure: "graph", nodeId: "dly_1" }]);
  });
});

describe("approval nodes", () => {
  const gate = () =>
    makeNode("approval", "apr_1", { timeoutMinutes: 10, notifyEmails: ["a@example.com"] }, [
      fromWebhook(W),
    ]);

  it("park until the scaled timeout", async () => {
    const ports = fakePorts({ delayScale: 0.01 });
    const result = await run([gate()], fromStart({}), ports);
    expect(result.outcomes).toMatchObject([
      { kind: "parked", park: "approval", resumeAt: ports.clock.now + 6000 },
    ]);
  });

  it.each([
    [{ kind: "approved", auto: false } as const, "deliver", "success"],
    [{ kind: "rejected", auto: false } as const, "blocked", "blocked"],
    [{ kind: "rejected", auto: true } as const, "blocked", "blocked"],
  ])("on %j end the path as %s", async (decision, outcome, status) => {
    const ports = fakePorts();
    const first = await run([gate()], fromStart({}), ports);
    const second = await run([gate()], resumeOf(first.outcomes[0] as PathOutcome, decision), ports);
    expect(second.outcomes[0]?.kind).toBe(outcome);
    expect(second.steps.map((s) => s.status)).toEqual([status]);
  });
});

describe("rate limiter nodes", () => {
  const limiterOf = (overflowAction: "drop" | "queue", extra: Record<string, unknown> = {}) =>
    makeNode(
      "rateLimiter",
      "rln_1",
      { maxEvents: 1, windowSeconds: 10, overflowAction, maxQueueDelaySeconds: 15, ...extra },
      [fromWebhook(W)],
    );
  const limiter = limiterOf;

  it("let arrivals within the limit through and forward them to their output webhooks", async () => {
    const ports = fakePorts();
    const result = await run(
      [limiter("drop", { outputWebhookIds: ["wh_out"] })],
      fromStart({}),
      ports,
    );
    expect(result.outcomes).toMatchObject([
      { kind: "forward", webhookId: "wh_out", viaNodeId: "rln_1" },
    ]);
  });

  it("continue into their output transforms", async () => {
    const rl = limiter("drop", { outputTransformIds: ["trn_1"] });
    const t = makeNode("transform", "trn_1", { transformMode: "jq", template: "add-flag" });
    const result = await run([rl, t], fromStart({ a: 1 }), fakePorts());
    expect(result.outcomes).toMatchObject([{ kind: "deliver", payload: { a: 1, flagged: true } }]);
  });

  it("drop the arrival over the limit with overflowAction drop", async () => {
    const ports = fakePorts();
    await run([limiter("drop")], fromStart({}), ports, "run_a");
    const second = await run([limiter("drop")], fromStart({}), ports, "run_b");
    expect(second.outcomes).toMatchObject([{ kind: "blocked", nodeId: "rln_1" }]);
  });

  it("count the same arrival once when a job runs it again", async () => {
    const ports = fakePorts();
    await run([limiter("drop")], fromStart({}), ports, "run_a");
    const again = await run([limiter("drop")], fromStart({}), ports, "run_a");
    expect(again.outcomes).toMatchObject([{ kind: "deliver" }]);
  });

  it("queue the arrival over the limit until a slot frees, then let it through", async () => {
    const ports = fakePorts();
    await run([limiter("queue")], fromStart({}), ports, "run_a");
    ports.clock.now += 4000;
    const queued = await run([limiter("queue")], fromStart({}), ports, "run_b");
    expect(queued.outcomes).toMatchObject([
      { kind: "parked", park: "rateLimiter", resumeAt: ports.clock.now + 6000 },
    ]);
    ports.clock.now += 6000;
    const resumed = await run(
      [limiter("queue")],
      resumeOf(queued.outcomes[0] as PathOutcome, { kind: "continue" }),
      ports,
      "run_b",
    );
    expect(resumed.outcomes).toMatchObject([{ kind: "deliver" }]);
  });

  it("park a queued arrival again when the slot was taken, keeping its deadline", async () => {
    const ports: FakePorts = fakePorts();
    const limiter = (action: "queue") => limiterOf(action, { maxQueueDelaySeconds: 25 });
    await run([limiter("queue")], fromStart({}), ports, "run_a");
    const queued = await run([limiter("queue")], fromStart({}), ports, "run_b");
    const parked = queued.outcomes[0] as Parked;
    ports.clock.now += 10_000;
    await run([limiter("queue")], fromStart({}), ports, "run_c");
    const again = await run(
      [limiter("queue")],
      resumeOf(parked, { kind: "continue" }),
      ports,
      "run_b",
    );
    expect(again.outcomes).toMatchObject([
      {
        kind: "parked",
        state: { deadline: parked.state.deadline, parkedAt: parked.state.parkedAt },
      },
    ]);
    ports.clock.now += 10_000;
    await run([limiter("queue")], fromStart({}), ports, "run_d");
    const dropped = await run(
      [limiter("queue")],
      resumeOf(again.outcomes[0] as PathOutcome, { kind: "continue" }),
      ports,
      "run_b",
    );
    expect(dropped.outcomes).toMatchObject([{ kind: "blocked" }]);
  });

  it("let everything through while inactive", async () => {
    const ports = fakePorts();
    const off = limiter("drop", { isActive: false });
    await run([off], fromStart({}), ports, "run_a");
    const second = await run([off], fromStart({}), ports, "run_b");
    expect(second.outcomes).toMatchObject([{ kind: "deliver" }]);
  });
});

describe("merge nodes", () => {
  const diamond = (mode: "wait_all" | "first", delayed = false) => {
    const a = makeNode("transform", "trn_a", { transformMode: "jq", template: "add-flag" }, [
      fromWebhook(W),
    ]);
    const b = delayed
      ? makeNode("delay", "dly_b", { delaySeconds: 1 }, [fromWebhook(W)])
      : makeNode("transform", "trn_b", { transformMode: "jq", template: "drop-total" }, [
          fromWebhook(W),
        ]);
    const m = makeNode("merge", "mrg_1", { mode, expectedBranchCount: 2 }, [
      fromNode(a),
      fromNode(b),
    ]);
    return [a, b, m];
  };

  it("join two paths of one run into one delivery of both branches", async () => {
    const result = await run(diamond("wait_all"), fromStart({ total: 5 }), fakePorts());
    expect(result.outcomes).toEqual([
      expect.objectContaining({ kind: "parked", park: "merge", pathId: "root>trn_a" }),
      {
        kind: "deliver",
        pathId: "mrg_1",
        payload: { branches: [{ total: 5, flagged: true }, {}] },
        body: '{"branches":[{"total":5,"flagged":true},{}]}',
      },
    ]);
    expect(result.mergesSettled).toEqual([{ nodeId: "mrg_1", result: "done" }]);
    const mergeSteps = result.steps.filter((s) => s.nodeId === "mrg_1").map((s) => s.status);
    expect(mergeSteps).toEqual(["running", "success"]);
  });

  it("join a path that arrives in a later job", async () => {
    const ports = fakePorts();
    const nodes = diamond("wait_all", true);
    const first = await run(nodes, fromStart({ total: 5 }), ports);
    expect(first.outcomes.map((o) => o.kind)).toEqual(["parked", "parked"]);
    const delayPark = first.outcomes.find(
      (o) => o.kind === "parked" && o.park === "delay",
    ) as PathOutcome;
    const second = await run(nodes, resumeOf(delayPark, { kind: "continue" }), ports);
    expect(second.outcomes).toMatchObject([
      { kind: "deliver", payload: { branches: [{ total: 5, flagged: true }, { total: 5 }] } },
    ]);
  });

  it("fail the event when the wait for the branches times out", async () => {
    const ports = fakePorts();
    const nodes = diamond("wait_all", true);
    const first = await run(nodes, fromStart({}), ports);
    const mergePark = first.outcomes.find(
      (o) => o.kind === "parked" && o.park === "merge",
    ) as PathOutcome;
    const timeout = await run(nodes, resumeOf(mergePark, { kind: "timeout" }), ports);
    expect(timeout.outcomes).toMatchObject([
      { kind: "failed", failure: "merge_timeout", nodeId: "mrg_1" },
    ]);
    const delayPark = first.outcomes.find(
      (o) => o.kind === "parked" && o.park === "delay",
    ) as PathOutcome;
    const late = await run(nodes, resumeOf(delayPark, { kind: "continue" }), ports);
    expect(late.outcomes).toMatchObject([{ kind: "joined", nodeId: "mrg_1" }]);
  });

  it("go on with the first path only in first mode", async () => {
    const result = await run(diamond("first"), fromStart({ total: 5 }), fakePorts());
    expect(result.outcomes).toEqual([
      {
        kind: "deliver",
        pathId: "mrg_1",
        payload: { total: 5, flagged: true },
        body: '{"total":5,"flagged":true}',
      },
      { kind: "joined", pathId: "root>trn_b", nodeId: "mrg_1" },
    ]);
  });
});

describe("dry-run ports", () => {
  it("report parks and never count a rate limit", async () => {
    const rl = makeNode("rateLimiter", "rln_1", { maxEvents: 1, windowSeconds: 10 }, [
      fromWebhook(W),
    ]);
    const d = makeNode("delay", "dly_1", { delaySeconds: 10 }, [fromNode(rl)]);
    const asked: string[] = [];
    const ports = createDryRunPorts({
      transform: { run: async () => ({ ok: false, error: "unused" }) },
      patterns: { match: async () => ({ ok: false, error: "unused" }) },
      peekRateLimit: async ({ member }) => {
        asked.push(member);
        return { allowed: true };
      },
      now: () => 0,
    });
    const first = await run([rl, d], fromStart({}), ports);
    const second = await run([rl, d], fromStart({}), ports);
    expect(first.outcomes).toMatchObject([{ kind: "parked", park: "delay" }]);
    expect(second.outcomes).toMatchObject([{ kind: "parked", park: "delay" }]);
    expect(asked).toHaveLength(2);
  });
});
