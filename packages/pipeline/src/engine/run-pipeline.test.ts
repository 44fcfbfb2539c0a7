import { buildGraph } from "../graph/build-graph.js";
import type { PipelineNode } from "../nodes.js";
import { MAX_PAYLOAD_DEPTH } from "../payload-depth.js";
import { fakePorts } from "../testing/fake-ports.js";
import { fromNode, fromWebhook, makeNode } from "../testing/node-fixtures.js";
import { runPipeline } from "./run-pipeline.js";
import type { PathOutcome, RunInput, RunStart } from "./types.js";

const W = "wh_main";

function run(nodes: PipelineNode[], start: RunStart, ports = fakePorts()) {
  const input: RunInput = {
    eventId: "evt_1",
    webhookId: W,
    eventType: "order.created",
    runId: "run_1",
    graph: buildGraph(nodes),
    start,
  };
  return runPipeline(input, ports);
}

const fromStart = (payload: unknown): RunStart => ({
  kind: "webhook",
  payload,
  payloadFilters: [],
});

const statuses = (steps: Array<{ nodeId: string; status: string }>) =>
  steps.map((s) => `${s.nodeId}:${s.status}`);

const filter = (id: string, inputs: PipelineNode[] | "webhook", value = "order") =>
  makeNode(
    "filter",
    id,
    { filters: [{ field: "type", operator: "eq", value }] },
    inputs === "webhook" ? [fromWebhook(W)] : inputs.map(fromNode),
  );
const transform = (id: string, template: string, inputs: PipelineNode[] | "webhook") =>
  makeNode(
    "transform",
    id,
    { transformMode: "javascript", template },
    inputs === "webhook" ? [fromWebhook(W)] : inputs.map(fromNode),
  );

describe("runPipeline from the webhook", () => {
  it("delivers the raw body unchanged when the webhook has no nodes", async () => {
    const result = await run([], fromStart({ type: "order" }));
    expect(result.outcomes).toEqual([
      { kind: "deliver", pathId: "root", payload: { type: "order" }, body: null },
    ]);
    expect(result.steps).toEqual([]);
  });

  it("stops at the payload filters before any node runs", async () => {
    const ports = fakePorts();
    const t = transform("trn_1", "add-flag", "webhook");
    const result = await run(
      [t],
      {
        kind: "webhook",
        payload: { type: "refund" },
        payloadFilters: [{ field: "type", operator: "eq", value: "order" }],
      },
      ports,
    );
    expect(result.outcomes).toEqual([
      {
        kind: "blocked",
        pathId: "root",
        nodeId: W,
        nodeType: "webhook",
        reason: "payload filters did not match",
      },
    ]);
    expect(ports.transformCalls).toEqual([]);
    expect(statuses(result.steps)).toEqual([`${W}:running`, `${W}:blocked`]);
  });

  it("runs a linear chain in order and delivers once with the transformed bytes", async () => {
    const f = filter("fltn_1", "webhook");
    const t = transform("trn_1", "add-flag", [f]);
    const v = makeNode(
      "schemaValidator",
      "sv_1",
      { fields: [{ path: "flagged", type: "boolean", required: true }] },
      [fromNode(t)],
    );
    const ports = fakePorts();
    const result = await run([v, t, f], fromStart({ type: "order" }), ports);
    expect(result.outcomes).toEqual([
      {
        kind: "deliver",
        pathId: "root",
        payload: { type: "order", flagged: true },
        body: '{"type":"order","flagged":true}',
      },
    ]);
    expect(statuses(result.steps)).toEqual([
      "fltn_1:running",
      "fltn_1:success",
      "trn_1:running",
      "trn_1:success",
      "sv_1:running",
      "sv_1:success",
    ]);
    expect(result.steps[3]).toMatchObject({
      nodeType: "transform",
      nodeName: "transform trn_1",
      lastPayload: { type: "order", flagged: true },
    });
    expect(result.steps[1]?.lastPayload).toBeUndefined();
    expect(ports.steps).toEqual(result.steps);
  });

  it("blocks a path at a filter that does not match and runs nothing after it", async () => {
    const f = filter("fltn_1", "webhook");
    const t = transform("trn_1", "add-flag", [f]);
    const ports = fakePorts();
    const result = await run([f, t], fromStart({ type: "refund" }), ports);
    expect(result.outcomes).toEqual([
      {
        kind: "blocked",
        pathId: "root",
        nodeId: "fltn_1",
        nodeType: "filter",
        reason: "a filter rule did not match",
      },
    ]);
    expect(ports.transformCalls).toEqual([]);
    expect(statuses(result.steps)).toEqual(["fltn_1:running", "fltn_1:blocked"]);
  });

  it("fails a path on a transform error with the error in the step", async () => {
    const t = transform("trn_1", "explode", "webhook");
    const result = await run([t], fromStart({}));
    expect(result.outcomes).toEqual([
      {
        kind: "failed",
        pathId: "root",
        nodeId: "trn_1",
        nodeType: "transform",
        error: "TypeError: boom",
        failure: "transform",
      },
    ]);
    expect(result.steps.at(-1)).toMatchObject({ status: "error", error: "TypeError: boom" });
  });

  it("fails a path on a schema violation as a validation failure", async () => {
    const v = makeNode(
      "schemaValidator",
      "sv_1",
      { strictMode: true, fields: [{ path: "id", type: "integer", required: true }] },
      [fromWebhook(W)],
    );
    const result = await run([v], fromStart({ id: "x", extra: 1 }));
    expect(result.outcomes).toEqual([
      {
        kind: "failed",
        pathId: "root",
        nodeId: "sv_1",
        nodeType: "schemaValidator",
        error: "id: expected integer, got string; extra: not allowed (strict mode)",
        failure: "validation",
      },
    ]);
  });

  it("follows every path of a fan-out, each delivering at its end", async () => {
    const a = transform("trn_a", "add-flag", "webhook");
    const b = filter("fltn_b", "webhook");
    const result = await run([a, b], fromStart({ type: "order" }));
    expect(result.outcomes).toEqual([
      {
        kind: "deliver",
        pathId: "root>trn_a",
        payload: { type: "order", flagged: true },
        body: '{"type":"order","flagged":true}',
      },
      { kind: "deliver", pathId: "root>fltn_b", payload: { type: "order" }, body: null },
    ]);
  });

  it("runs a node reached by two paths once per path when it is not a merge", async () => {
    const a = filter("fltn_a", "webhook");
    const b = filter("fltn_b", "webhook");
    const c = transform("trn_c", "identity", [a, b]);
    const ports = fakePorts();
    const result = await run([a, b, c], fromStart({ type: "order" }), ports);
    expect(ports.transformCalls).toEqual(["trn_c:identity", "trn_c:identity"]);
    expect(result.outcomes.map((o) => o.pathId)).toEqual(["root>fltn_a", "root>fltn_b"]);
  });

  it("forwards through the first matching route and ends that path there", async () => {
    const router = makeNode(
      "router",
      "rtr_1",
      {
        routes: [
          { field: "type", operator: "eq", value: "refund", outputWebhookId: "wh_refunds" },
          { field: "type", operator: "eq", value: "order", outputWebhookId: "wh_orders" },
        ],
      },
      [fromWebhook(W)],
    );
    const result = await run([router], fromStart({ type: "order" }));
    expect(result.outcomes).toEqual([
      {
        kind: "forward",
        pathId: "root",
        webhookId: "wh_orders",
        viaNodeId: "rtr_1",
        viaNodeType: "router",
        payload: { type: "order" },
        body: null,
      },
    ]);
  });

  it("blocks at a router with no matching route", async () => {
    const router = makeNode(
      "router",
      "rtr_1",
      { routes: [{ field: "type", operator: "eq", value: "refund", outputWebhookId: "wh_r" }] },
      [fromWebhook(W)],
    );
    const result = await run([router], fromStart({ type: "order" }));
    expect(result.outcomes).toMatchObject([
      { kind: "blocked", nodeId: "rtr_1", reason: "no route matched" },
    ]);
  });

  it("delivers a handlebars-style text output as the exact bytes", async () => {
    const t = transform("trn_1", "to-text", "webhook");
    const result = await run([t], fromStart({ a: 1 }));
    expect(result.outcomes).toMatchObject([{ kind: "deliver", body: "plain text" }]);
  });

  it("parks at a delay with the scaled resume time and the payload so far", async () => {
    const t = transform("trn_1", "add-flag", "webhook");
    const d = makeNode("delay", "dly_1", { delaySeconds: 30 }, [fromNode(t)]);
    const ports = fakePorts({ delayScale: 0.1 });
    const result = await run([t, d], fromStart({ a: 1 }), ports);
    expect(result.outcomes).toEqual([
      {
        kind: "parked",
        pathId: "root",
        nodeId: "dly_1",
        nodeType: "delay",
        park: "delay",
        resumeAt: ports.clock.now + 3000,
        payload: { a: 1, flagged: true },
        body: '{"a":1,"flagged":true}',
        state: { parkedAt: ports.clock.now },
      },
    ]);
    expect(statuses(result.steps).slice(-1)).toEqual(["dly_1:running"]);
  });

  it("fails the remaining paths of a graph that explodes in paths", async () => {
    // Ten layers of two parallel filters, each layer fed by both of the layer before: 2^10 paths.
    const nodes: PipelineNode[] = [];
    let previous: PipelineNode[] | "webhook" = "webhook";
    for (let layer = 0; layer < 10; layer++) {
      const pair: PipelineNode[] = [
        filter(`fltn_${layer}a`, previous),
        filter(`fltn_${layer}b`, previous),
      ];
      nodes.push(...pair);
      previous = pair;
    }
    const result = await run(nodes, fromStart({ type: "order" }));
    const failed = result.outcomes.filter(
      (o): o is Extract<PathOutcome, { kind: "failed" }> => o.kind === "failed",
    );
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.failure).toBe("graph");
  });

  it("fails a payload nested past the depth limit at the webhook, before any node runs", async () => {
    const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const t = transform("trn_1", "add-flag", "webhook");
    for (const start of [
      // The text when it is at hand, the parsed value when it is not.
      {
        ...fromStart(JSON.parse(deep(MAX_PAYLOAD_DEPTH + 1))),
        payloadText: deep(MAX_PAYLOAD_DEPTH + 1),
      },
      fromStart(JSON.parse(deep(MAX_PAYLOAD_DEPTH + 1))),
    ]) {
      const ports = fakePorts();
      const result = await run([t], start, ports);
      const error = `the payload nests more than ${MAX_PAYLOAD_DEPTH} levels deep`;
      expect(result.outcomes).toEqual([
        {
          kind: "failed",
          pathId: "root",
          nodeId: W,
          nodeType: "webhook",
          error,
          failure: "validation",
        },
      ]);
      expect(result.steps.at(-1)).toMatchObject({ nodeId: W, status: "error", error });
      expect(ports.transformCalls).toEqual([]);
    }
    // At the limit it runs; with no node to run, nothing serializes it and it is delivered.
    const atLimit = await run([t], fromStart(JSON.parse(deep(MAX_PAYLOAD_DEPTH))));
    expect(atLimit.outcomes[0]?.kind).toBe("deliver");
    const noNodes = await run([], fromStart(JSON.parse(deep(MAX_PAYLOAD_DEPTH + 1))));
    expect(noNodes.outcomes[0]?.kind).toBe("deliver");
  });
});
