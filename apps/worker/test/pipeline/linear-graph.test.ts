import { replayEvent } from "@hookflow/db";
import { type Receiver, startReceiver } from "@hookflow/testing";
import {
  expectedHookflowSignature,
  startWorkerHarness,
  TEST_SECRET,
  type WorkerHarness,
} from "../harness.js";
import {
  createNode,
  fromNode,
  fromWebhook,
  recordedSteps,
  stepOutline,
} from "./pipeline-harness.js";

let h: WorkerHarness;
let receiver: Receiver;

beforeAll(async () => {
  h = await startWorkerHarness();
  receiver = await startReceiver();
});

afterAll(async () => {
  await h.close();
  await receiver.close();
});

beforeEach(() => {
  receiver.requests.length = 0;
});

async function orderGraph(
  template: { transformMode: "handlebars" | "jq" | "javascript"; template: string },
  webhookSettings: Parameters<WorkerHarness["createWebhook"]>[0] = {},
) {
  const webhook = await h.createWebhook({
    targetUrl: `${receiver.url}/orders`,
    ...webhookSettings,
  });
  const filter = await createNode(
    h,
    "filter",
    { filters: [{ field: "type", operator: "eq", value: "order" }] },
    [fromWebhook(webhook.id)],
    "orders only",
  );
  const transform = await createNode(h, "transform", template, [fromNode(filter)], "reshape");
  const validator = await createNode(
    h,
    "schemaValidator",
    {
      strictMode: true,
      fields: [
        { path: "orderId", type: "string", required: true },
        { path: "cents", type: "integer", required: true, constraints: { min: 0 } },
      ],
    },
    [fromNode(transform)],
    "order contract",
  );
  return { webhook, filter, transform, validator };
}

const MODES = [
  { transformMode: "jq" as const, template: "{orderId: .id, cents: (.total * 100 | floor)}" },
  {
    transformMode: "javascript" as const,
    template:
      "export default function (payload) { return { orderId: payload.id, cents: Math.floor(payload.total * 100) }; }",
  },
  {
    transformMode: "handlebars" as const,
    template: '{"orderId": "{{id}}", "cents": {{cents}}}',
  },
];

describe("a webhook -> filter -> transform -> validator graph", () => {
  it.each(MODES)(
    "delivers the bytes a $transformMode transform produced, signed over those bytes",
    async (mode) => {
      const { webhook, filter, transform, validator } = await orderGraph(mode);
      const { id } = await h.createEvent(webhook, {
        body: JSON.stringify({ type: "order", id: "o-1", total: 12.5, cents: 1250 }),
      });
      const event = await h.waitForStatus(id, "delivered");
      const [request] = await receiver.waitForRequests(1);
      if (!request) throw new Error("no request");
      expect(JSON.parse(request.body.toString("utf8"))).toEqual({ orderId: "o-1", cents: 1250 });
      expect(event.deliveryBody).toBe(request.body.toString("utf8"));
      const header = String(request.headers["x-hookflow-signature"]);
      const t = /t=(\d+)/.exec(header)?.[1] ?? "";
      expect(header).toContain(expectedHookflowSignature(TEST_SECRET, t, request.body));
      expect(await stepOutline(h, id)).toEqual([
        `${filter.id}:running`,
        `${filter.id}:success`,
        `${transform.id}:running`,
        `${transform.id}:success`,
        `${validator.id}:running`,
        `${validator.id}:success`,
      ]);
      const steps = await recordedSteps(h, id);
      expect(steps[3]).toMatchObject({
        nodeType: "transform",
        nodeName: "reshape",
        lastPayload: { orderId: "o-1", cents: 1250 },
      });
    },
  );

  it("stores each node's steps as the very steps it streamed (one text for both)", async () => {
    const { webhook, filter, transform, validator } = await orderGraph(
      MODES[0] as (typeof MODES)[0],
    );
    const { id } = await h.createEvent(webhook, {
      body: JSON.stringify({ type: "order", id: "o-2", total: 1.5, cents: 150 }),
    });
    await h.waitForStatus(id, "delivered");
    // The status is stored as soon as the delivery settles; the steps reach Redis after the
    // publisher's gather window, so wait for what it was given.
    await h.services.steps.flush();
    const nodes = new Set([filter.id, transform.id, validator.id]);
    const buffer = await h.services.redis.lrange(h.services.keys.stepBuffer(id), 0, -1);
    const streamed = buffer
      .map(
        (entry) =>
          (JSON.parse(entry) as { message: { kind: string; step?: { nodeId: string } } }).message,
      )
      .flatMap((message) =>
        message.kind === "step" && message.step && nodes.has(message.step.nodeId)
          ? [message.step]
          : [],
      );
    const [batch] = await h.database.sql<{ steps: unknown[] }[]>`
      select steps from event_step_batches where event_id = ${id} order by id`;
    expect(streamed).toHaveLength(6);
    expect(batch?.steps).toEqual(streamed);
    expect(streamed[3]).toMatchObject({ eventId: id, lastPayload: { orderId: "o-2", cents: 150 } });
  });

  it("filters an event the filter node does not let through, without running later nodes", async () => {
    const { webhook, filter } = await orderGraph(MODES[0] as (typeof MODES)[number]);
    const { id } = await h.createEvent(webhook, {
      body: JSON.stringify({ type: "refund", id: "r" }),
    });
    await h.waitForStatus(id, "filtered");
    expect(await stepOutline(h, id)).toEqual([`${filter.id}:running`, `${filter.id}:blocked`]);
    expect(receiver.requests).toHaveLength(0);
  });

  it("fails an event whose transformed payload breaks the schema, with the reasons", async () => {
    const { webhook, validator } = await orderGraph({
      transformMode: "jq",
      template: "{orderId: .id, cents: .total, extra: true}",
    });
    const { id } = await h.createEvent(webhook, {
      body: JSON.stringify({ type: "order", id: "o-2", total: 1.5 }),
    });
    const event = await h.waitForStatus(id, "failed");
    expect(event.lastError).toBe(
      "cents: expected integer, got number; extra: not allowed (strict mode)",
    );
    const steps = await recordedSteps(h, id);
    expect(steps.at(-1)).toMatchObject({ nodeId: validator.id, status: "error" });
    expect(await h.attempts(id)).toHaveLength(0);
  });

  it("fails an event whose transform throws, with the error in the step", async () => {
    const { webhook, transform } = await orderGraph({
      transformMode: "javascript",
      template: "export default function () { throw new Error('no such order'); }",
    });
    const { id } = await h.createEvent(webhook, {
      body: JSON.stringify({ type: "order", id: "x" }),
    });
    const event = await h.waitForStatus(id, "failed");
    expect(event.lastError).toContain("no such order");
    const steps = await recordedSteps(h, id);
    expect(steps.at(-1)).toMatchObject({ nodeId: transform.id, status: "error" });
  });

  it("delivers the raw body byte for byte when no node changed it", async () => {
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    await createNode(h, "filter", { filters: [{ field: "a", operator: "exists" }] }, [
      fromWebhook(webhook.id),
    ]);
    const body = '{ "a" :  1,\n  "b": "ünïcode" }';
    const { id } = await h.createEvent(webhook, { body });
    const event = await h.waitForStatus(id, "delivered");
    const [request] = await receiver.waitForRequests(1);
    expect(request?.body.toString("utf8")).toBe(body);
    expect(event.deliveryBody).toBeNull();
  });

  it("runs the graph once per run even when the webhook's rate limit defers the delivery", async () => {
    // One attempt per second: most events wait for the window after the graph ran.
    const { webhook, transform } = await orderGraph(MODES[0] as (typeof MODES)[number], {
      rateLimitPerSecond: 1,
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { id } = await h.createEvent(webhook, {
        body: JSON.stringify({ type: "order", id: `o-${i}`, total: 1, cents: 100 }),
      });
      ids.push(id);
    }
    for (const id of ids) await h.waitForStatus(id, "delivered");
    for (const id of ids) {
      const transformSteps = (await stepOutline(h, id)).filter((s) => s.startsWith(transform.id));
      expect(transformSteps).toEqual([`${transform.id}:running`, `${transform.id}:success`]);
    }
  });

  it("replays an event through its graph again from the original payload", async () => {
    const { webhook, transform } = await orderGraph(MODES[0] as (typeof MODES)[number]);
    const { id } = await h.createEvent(webhook, {
      body: JSON.stringify({ type: "order", id: "o-9", total: 2, cents: 200 }),
    });
    await h.waitForStatus(id, "delivered");
    await replayEvent(h.database.db, id, new Date());
    await h.enqueue(webhook, id, webhook.id);
    await h.waitForEvent(id, (e) => e.status === "delivered" && e.attemptCount === 2);
    const transformSteps = (await stepOutline(h, id)).filter((s) => s.startsWith(transform.id));
    expect(transformSteps).toHaveLength(4);
    const bodies = receiver.requests.map((r) => JSON.parse(r.body.toString("utf8")));
    expect(bodies).toEqual([
      { orderId: "o-9", cents: 200 },
      { orderId: "o-9", cents: 200 },
    ]);
  });
});
