import { events } from "@hookflow/db";
import { createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertEventRow, insertWebhookRow, webhookInput } from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;

/**
 * Time travel and contract health show what flow links and scheduled-workflow entries would do,
 * and do none of it: no event is created, nothing is called.
 */
describe("dry runs through flow links and scheduled entries", () => {
  let api: ApiHarness;
  let alice: User;
  let source: string;
  let target: string;
  let transform: Record<string, any>;
  let link: Record<string, any>;

  const eventCount = async () => (await api.services.db.db.select().from(events)).length;

  beforeAll(async () => {
    api = await startApi();
    const db = api.services.db.db;
    alice = await createUserWithSession(db);
    source = await insertWebhookRow(db, alice.userId, { name: "orders" });
    target = await insertWebhookRow(db, alice.userId, { acceptsInternalCalls: true });
    transform = await createNode(api, alice.token, "transform-nodes", {
      name: "reshape",
      transformMode: "jq",
      template: "{order: .id}",
      inputNodes: [webhookInput(source)],
    });
    link = await createNode(api, alice.token, "flow-links", {
      sourceNodeType: "transform",
      sourceNodeId: transform.id,
      webhookId: target,
      mode: "sync",
    });
  });
  afterAll(async () => {
    await api.close();
  });

  async function snapshotOf(webhookId: string): Promise<string> {
    const res = await api.call("POST", "/api/canvas-snapshots", {
      token: alice.token,
      body: {
        name: "with link",
        nodes: [
          {
            id: `webhook-${webhookId}`,
            type: "webhook",
            position: { x: 0, y: 0 },
            data: { webhookId },
          },
        ],
        edges: [],
      },
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id;
  }

  it("time travel records what a flow link would be called with, and calls nothing", async () => {
    const snapshotId = await snapshotOf(source);
    const eventId = await insertEventRow(api.services.db.db, source, { id: 5 });
    const before = await eventCount();
    const res = await api.call("POST", `/api/events/${eventId}/time-travel`, {
      token: alice.token,
      body: { snapshotId },
    });
    expect(res.status).toBe(200);
    expect(res.body.steps).toEqual(
      expect.arrayContaining([
        {
          node: link.id,
          nodeType: "flowLink",
          name: "flow link",
          result: "forwarded",
          forwardedTo: [target],
          payload: { order: 5 },
        },
        expect.objectContaining({ result: "would_deliver", payload: { order: 5 } }),
      ]),
    );
    expect(await eventCount()).toBe(before);
  });

  it("contract health runs through links without creating events", async () => {
    await createNode(api, alice.token, "schema-validators", {
      name: "order is a number",
      fields: [{ path: "order", type: "number", required: true }],
      inputNodes: [{ nodeType: "transform", nodeId: transform.id }],
    });
    await insertEventRow(api.services.db.db, source, { id: 6 });
    const before = await eventCount();
    const res = await api.call("GET", `/api/events/${source}/contract-health`, {
      token: alice.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.score).toBe(100);
    expect(await eventCount()).toBe(before);
  });

  it("time travel enters a scheduled workflow's tick at the workflow", async () => {
    const db = api.services.db.db;
    const hook = await insertWebhookRow(db, alice.userId, { name: "ticks" });
    const workflow = await createNode(api, alice.token, "scheduled-workflows", {
      name: "tick",
      cronExpression: "0 0 1 1 *",
      webhookId: hook,
      isActive: false,
    });
    const wrap = await createNode(api, alice.token, "transform-nodes", {
      name: "wrap",
      transformMode: "jq",
      template: "{tick: .}",
      inputNodes: [{ nodeType: "scheduledWorkflow", nodeId: workflow.id }],
    });
    const snapshotId = await snapshotOf(hook);
    const tick = await insertEventRow(db, hook, { n: 1 }, { entryNodeId: workflow.id });
    const plain = await insertEventRow(db, hook, { n: 2 });
    const travel = (id: string) =>
      api.call("POST", `/api/events/${id}/time-travel`, {
        token: alice.token,
        body: { snapshotId },
      });
    const ticked = await travel(tick);
    expect(ticked.status).toBe(200);
    expect(ticked.body.steps.map((s: { node: string }) => s.node)).toContain(wrap.id);
    expect(ticked.body.steps.at(-1)).toMatchObject({ payload: { tick: { n: 1 } } });
    const other = await travel(plain);
    expect(other.body.steps.map((s: { node: string }) => s.node)).not.toContain(wrap.id);
  });
});
