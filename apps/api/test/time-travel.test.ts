import { Redis } from "ioredis";
import { createApiKeyFor, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertEventRow, insertWebhookRow, webhookInput } from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;
type Body = Record<string, any>;

function webhookNode(id: string) {
  return {
    id: `webhook-${id}`,
    type: "webhook",
    position: { x: 0, y: 0 },
    data: { webhookId: id },
  };
}

describe("POST /api/events/:id/time-travel", () => {
  let api: ApiHarness;
  let redis: Redis;
  let alice: User;
  let bob: User;
  let hook: string;
  let routedHook: string;
  let forwardHook: string;
  let bobHook: string;
  let filter: Body;
  let transform: Body;
  let validator: Body;
  let approval: Body;
  let limiter: Body;
  let snapshot: Body;

  /** Every key under the suite's Redis prefix. */
  async function redisKeys(): Promise<string[]> {
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, batch] = await redis.scan(
        cursor,
        "MATCH",
        `${api.services.config.redisPrefix}*`,
        "COUNT",
        500,
      );
      cursor = next;
      keys.push(...batch);
    } while (cursor !== "0");
    return keys.sort();
  }

  /** Row counts of every table a real run writes to. */
  async function rowCounts() {
    const sql = api.services.db.sql;
    const [row] = await sql<Array<Record<string, number>>>`
      select
        (select count(*)::int from events) as events,
        (select count(*)::int from delivery_attempts) as attempts,
        (select count(*)::int from event_parks) as parks,
        (select count(*)::int from event_step_batches) as steps,
        (select count(*)::int from mail_outbox) as mail`;
    return row;
  }

  async function eventRow(id: string) {
    return api.services.db.db.query.events.findFirst({ where: (t, { eq }) => eq(t.id, id) });
  }

  async function saveSnapshot(webhookIds: string[]): Promise<Body> {
    const res = await api.call("POST", "/api/canvas-snapshots", {
      token: alice.token,
      body: { name: "flow", nodes: webhookIds.map(webhookNode), edges: [] },
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body;
  }

  const travel = (eventId: string, snapshotId: string, token = alice.token) =>
    api.call("POST", `/api/events/${eventId}/time-travel`, { token, body: { snapshotId } });

  beforeAll(async () => {
    api = await startApi({ HOOKFLOW_DELAY_SCALE: "1" });
    redis = new Redis(api.services.config.redisUrl);
    const db = api.services.db.db;
    alice = await createUserWithSession(db);
    bob = await createUserWithSession(db);
    hook = await insertWebhookRow(db, alice.userId, {
      name: "orders",
      targetUrl: "https://receiver.example/orders",
      payloadFilters: [{ field: "type", operator: "exists" }],
    });
    routedHook = await insertWebhookRow(db, alice.userId, { name: "routed" });
    forwardHook = await insertWebhookRow(db, alice.userId, { name: "big orders" });
    bobHook = await insertWebhookRow(db, bob.userId);

    // orders: payload filters -> filter -> jq transform -> validator -> approval
    filter = await createNode(api, alice.token, "filter-nodes", {
      name: "orders only",
      filters: [{ field: "type", operator: "eq", value: "order" }],
      inputNodes: [webhookInput(hook)],
    });
    transform = await createNode(api, alice.token, "transform-nodes", {
      name: "reshape",
      transformMode: "jq",
      template: "{id: .id, total: (.amount * 2 | floor)}",
      inputNodes: [{ nodeType: "filter", nodeId: filter.id }],
    });
    validator = await createNode(api, alice.token, "schema-validators", {
      name: "id is text",
      fields: [{ path: "id", type: "string", required: true }],
      inputNodes: [{ nodeType: "transform", nodeId: transform.id }],
    });
    approval = await createNode(api, alice.token, "approval-nodes", {
      name: "human check",
      notifyEmails: ["ops@example.com"],
      inputNodes: [{ nodeType: "schemaValidator", nodeId: validator.id }],
    });

    // routed: rate limiter -> javascript transform -> router (big totals forwarded) -> delivery
    limiter = await createNode(api, alice.token, "rate-limiter-nodes", {
      name: "one per minute",
      maxEvents: 1,
      windowSeconds: 60,
      inputNodes: [webhookInput(routedHook)],
    });
    const js = await createNode(api, alice.token, "transform-nodes", {
      name: "tag",
      transformMode: "javascript",
      template: "export default (payload) => ({ ...payload, tagged: true })",
      inputNodes: [{ nodeType: "rateLimiter", nodeId: limiter.id }],
    });
    await createNode(api, alice.token, "routers", {
      name: "big ones",
      routes: [{ field: "amount", operator: "gt", value: 100, outputWebhookId: forwardHook }],
      inputNodes: [{ nodeType: "transform", nodeId: js.id }],
    });
    await createNode(api, alice.token, "delay-nodes", {
      name: "later",
      delaySeconds: 30,
      inputNodes: [{ nodeType: "transform", nodeId: js.id }],
    });

    snapshot = await saveSnapshot([hook, routedHook]);
  });
  afterAll(async () => {
    redis.disconnect();
    await api.close();
  });

  it("shows each node's result and the status the event would end in", async () => {
    const eventId = await insertEventRow(
      api.services.db.db,
      hook,
      { type: "order", id: "o-1", amount: 21 },
      { status: "delivered" },
    );
    const res = await travel(eventId, snapshot.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      steps: [
        { node: hook, nodeType: "webhook", name: "payload filters", result: "passed" },
        { node: filter.id, nodeType: "filter", name: "orders only", result: "passed" },
        {
          node: transform.id,
          nodeType: "transform",
          name: "reshape",
          result: "passed",
          payload: { id: "o-1", total: 42 },
        },
        { node: validator.id, nodeType: "schemaValidator", name: "id is text", result: "passed" },
        {
          node: approval.id,
          nodeType: "approval",
          name: "human check",
          result: "parked",
          park: "approval",
        },
      ],
      finalStatus: "pending",
      matchedNodes: 3,
    });
  });

  it.each([
    {
      what: "payload filters without a match",
      payload: { id: "o-2" },
      last: { node: "hook", result: "blocked" },
      finalStatus: "filtered",
      matchedNodes: 0,
    },
    {
      what: "a filter node without a match",
      payload: { type: "refund", id: "r-1" },
      last: { node: "filter", result: "blocked" },
      finalStatus: "filtered",
      matchedNodes: 0,
    },
    {
      what: "a failing schema validator",
      payload: { type: "order", id: 7, amount: 1 },
      last: { node: "validator", result: "failed" },
      finalStatus: "failed",
      matchedNodes: 2,
    },
    {
      what: "a failing transform",
      payload: { type: "order", id: "o-3", amount: "lots" },
      last: { node: "transform", result: "failed" },
      finalStatus: "failed",
      matchedNodes: 1,
    },
  ])("reports $what", async ({ payload, last, finalStatus, matchedNodes }) => {
    const eventId = await insertEventRow(api.services.db.db, hook, payload);
    const res = await travel(eventId, snapshot.id);
    expect(res.status).toBe(200);
    const ids: Record<string, string> = {
      hook,
      filter: filter.id,
      transform: transform.id,
      validator: validator.id,
    };
    const final = res.body.steps[res.body.steps.length - 1];
    expect(final).toMatchObject({ node: ids[last.node], result: last.result });
    expect(final.reason ?? final.error).toEqual(expect.any(String));
    expect(res.body.finalStatus).toBe(finalStatus);
    expect(res.body.matchedNodes).toBe(matchedNodes);
  });

  it("reports a payload nested past the depth limit failing at its webhook", async () => {
    const depth = 200_000;
    const body = `{"type":"order","id":"o-4","deep":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    const eventId = await insertEventRow(api.services.db.db, hook, null, { body });
    const res = await travel(eventId, snapshot.id);
    expect(res.status).toBe(200);
    const final = res.body.steps[res.body.steps.length - 1];
    expect(final).toMatchObject({ node: hook, result: "failed" });
    expect(final.error).toBe("the payload nests more than 1000 levels deep");
    expect(res.body.finalStatus).toBe("failed");
  });

  it("runs forks: a forward, a wait and a delivery, through rate limiter and JavaScript", async () => {
    const eventId = await insertEventRow(api.services.db.db, routedHook, { amount: 500 });
    const res = await travel(eventId, snapshot.id);
    expect(res.status).toBe(200);
    const byResult = (result: string) => res.body.steps.filter((s: Body) => s.result === result);
    expect(byResult("forwarded")).toEqual([
      expect.objectContaining({ nodeType: "router", name: "big ones", forwardedTo: [forwardHook] }),
    ]);
    expect(byResult("parked")).toEqual([
      expect.objectContaining({ nodeType: "delay", name: "later", park: "delay" }),
    ]);
    const js = res.body.steps.find((s: Body) => s.name === "tag");
    expect(js).toMatchObject({ result: "passed", payload: { amount: 500, tagged: true } });
    expect(res.body.steps[0]).toMatchObject({ node: limiter.id, result: "passed" });
    expect(res.body.finalStatus).toBe("delivered");
    expect(res.body.matchedNodes).toBe(3);
  });

  it("changes nothing: no delivery, park, step, mail, event, queue or rate-limit state", async () => {
    const db = api.services.db.db;
    const eventId = await insertEventRow(db, routedHook, { amount: 500 }, { status: "failed" });
    const orderId = await insertEventRow(db, hook, { type: "order", id: "o-9", amount: 1 });
    const before = {
      routed: await eventRow(eventId),
      order: await eventRow(orderId),
      counts: await rowCounts(),
      keys: await redisKeys(),
    };
    // The limiter allows one event a minute: a run that counted would block the second one.
    for (let i = 0; i < 3; i++) {
      const res = await travel(eventId, snapshot.id);
      expect(res.body.steps[0]).toMatchObject({ node: limiter.id, result: "passed" });
    }
    expect((await travel(orderId, snapshot.id)).body.finalStatus).toBe("pending");
    expect(await eventRow(eventId)).toEqual(before.routed);
    expect(await eventRow(orderId)).toEqual(before.order);
    expect(await rowCounts()).toEqual(before.counts);
    expect(await redisKeys()).toEqual(before.keys);
  });

  it("runs the graph as the snapshot froze it, not as it is now", async () => {
    const eventId = await insertEventRow(api.services.db.db, hook, {
      type: "refund",
      id: "r-2",
      amount: 3,
    });
    await api.call("PATCH", `/api/filter-nodes/${filter.id}`, {
      token: alice.token,
      body: { filters: [{ field: "type", operator: "eq", value: "refund" }] },
    });
    try {
      const old = await travel(eventId, snapshot.id);
      expect(old.body.finalStatus).toBe("filtered");
      const fresh = await saveSnapshot([hook]);
      const now = await travel(eventId, fresh.id);
      expect(now.body.finalStatus).toBe("pending");
    } finally {
      await api.call("PATCH", `/api/filter-nodes/${filter.id}`, {
        token: alice.token,
        body: { filters: [{ field: "type", operator: "eq", value: "order" }] },
      });
    }
  });

  describe("errors and security", () => {
    let eventId: string;
    let bobEvent: string;
    let bobSnapshot: Body;
    beforeAll(async () => {
      eventId = await insertEventRow(api.services.db.db, hook, { type: "order", id: "x" });
      bobEvent = await insertEventRow(api.services.db.db, bobHook, { type: "order" });
      const res = await api.call("POST", "/api/canvas-snapshots", {
        token: bob.token,
        body: { name: "bob's flow", nodes: [webhookNode(bobHook)], edges: [] },
      });
      bobSnapshot = res.body;
    });

    it("answers 400 when the snapshot does not show the event's webhook", async () => {
      const other = await saveSnapshot([routedHook]);
      const res = await travel(eventId, other.id);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        `snapshotId: Snapshot ${other.id} does not show webhook ${hook}`,
      );
    });

    it.each([
      ["snapshotId missing", {}],
      ["snapshotId empty", { snapshotId: "" }],
      ["snapshotId not a string", { snapshotId: 5 }],
    ])("answers 400 for %s", async (_, body) => {
      const res = await api.call("POST", `/api/events/${eventId}/time-travel`, {
        token: alice.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^snapshotId: /);
    });

    it("answers 404 for an unknown event or snapshot, 403 for another owner's", async () => {
      expect((await travel("evt_01NOPE", snapshot.id)).status).toBe(404);
      expect((await travel(eventId, "cvs_01NOPE")).status).toBe(404);
      expect((await travel(bobEvent, snapshot.id)).status).toBe(403);
      expect((await travel(eventId, bobSnapshot.id)).status).toBe(403);
      expect((await travel(bobEvent, bobSnapshot.id, bob.token)).status).toBe(200);
    });

    it("needs events:write and a credential", async () => {
      const db = api.services.db.db;
      const readOnly = await createApiKeyFor(db, alice.userId, {
        scopes: ["events:read", "canvas:read", "canvas:write"],
      });
      const writer = await createApiKeyFor(db, alice.userId, { scopes: ["events:write"] });
      expect((await travel(eventId, snapshot.id, readOnly.key)).status).toBe(403);
      expect((await travel(eventId, snapshot.id, writer.key)).status).toBe(200);
      const anonymous = await api.call("POST", `/api/events/${eventId}/time-travel`, {
        body: { snapshotId: snapshot.id },
      });
      expect(anonymous.status).toBe(401);
    });
  });

  it("is documented in the OpenAPI document", async () => {
    const { body } = await api.call("GET", "/api/openapi.json");
    const operation = body.paths["/api/events/{id}/time-travel"].post;
    expect(operation.summary).toBe("Dry-run an event through a canvas snapshot");
    expect(operation.requestBody.required).toBe(true);
    expect(body.components.schemas.TimeTravelReport).toBeDefined();
  });
});
