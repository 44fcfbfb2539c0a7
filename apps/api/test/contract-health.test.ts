import {
  type ContractHealthInput,
  checkContractHealth,
  liveWebhookGraph,
  reachableNodesOf,
} from "@hookflow/services";
import { createApiKeyFor, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertEventRow, insertWebhookRow, webhookInput } from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;

const minute = (m: number) => new Date(Date.UTC(2024, 0, 1, 12, m));

describe("GET /api/events/:webhookId/contract-health", () => {
  let api: ApiHarness;
  let alice: User;
  let bob: User;
  let hook: string;
  let quietHook: string;
  let bareHook: string;
  let amountCheck: Record<string, any>;
  let currencyCheck: Record<string, any>;

  beforeAll(async () => {
    api = await startApi();
    const db = api.services.db.db;
    alice = await createUserWithSession(db);
    bob = await createUserWithSession(db);
    hook = await insertWebhookRow(db, alice.userId);
    quietHook = await insertWebhookRow(db, alice.userId);
    bareHook = await insertWebhookRow(db, alice.userId);
    const otherHook = await insertWebhookRow(db, alice.userId);

    amountCheck = await createNode(api, alice.token, "schema-validators", {
      name: "amount is a number",
      fields: [{ path: "amount", type: "number", required: true }],
      inputNodes: [webhookInput(hook), webhookInput(quietHook)],
    });
    const filter = await createNode(api, alice.token, "filter-nodes", {
      name: "everything",
      filters: [{ field: "amount", operator: "exists" }],
      inputNodes: [webhookInput(hook)],
    });
    // Behind a filter: still reachable from the webhook, so it counts.
    currencyCheck = await createNode(api, alice.token, "schema-validators", {
      name: "known currency",
      fields: [
        { path: "currency", type: "string", required: true, constraints: { enum: ["EUR", "USD"] } },
      ],
      inputNodes: [{ nodeType: "filter", nodeId: filter.id }],
    });
    // On another webhook: not part of this webhook's contract.
    await createNode(api, alice.token, "schema-validators", {
      name: "elsewhere",
      strictMode: true,
      fields: [],
      inputNodes: [webhookInput(otherHook)],
    });

    const payloads = [
      { amount: 5, currency: "EUR" },
      { amount: "5", currency: "EUR" },
      { amount: 5, currency: "GBP" },
      { amount: 5 },
      { amount: 1, currency: "USD" },
    ];
    for (const [i, payload] of payloads.entries()) {
      await insertEventRow(db, hook, payload, {
        status: i % 2 === 0 ? "delivered" : "failed",
        createdAt: minute(i),
      });
    }
    await insertEventRow(db, otherHook, { nothing: true });
  });
  afterAll(async () => {
    await api.close();
  });

  const health = (webhookId: string, query = "", token = alice.token) =>
    api.call("GET", `/api/events/${webhookId}/contract-health${query}`, { token });

  it("scores the last events against every validator reachable from the webhook", async () => {
    const res = await health(hook);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      score: 40,
      totalChecked: 5,
      passed: 2,
      failed: 3,
      validators: [
        { id: amountCheck.id, name: "amount is a number", passRate: 80 },
        { id: currencyCheck.id, name: "known currency", passRate: 60 },
      ],
    });
  });

  it.each([
    { limit: 2, score: 50, passed: 1, amount: 100, currency: 50 },
    { limit: 3, score: 33.3, passed: 1, amount: 100, currency: 33.3 },
    { limit: 1000, score: 40, passed: 2, amount: 80, currency: 60 },
  ])("checks only the newest $limit events, rounding to one decimal", async (row) => {
    const res = await health(hook, `?limit=${row.limit}`);
    expect(res.status).toBe(200);
    const checked = Math.min(row.limit, 5);
    expect(res.body).toMatchObject({
      score: row.score,
      totalChecked: checked,
      passed: row.passed,
      failed: checked - row.passed,
    });
    expect(res.body.validators.map((v: { passRate: number }) => v.passRate)).toEqual([
      row.amount,
      row.currency,
    ]);
  });

  it("answers a full score with nothing checked for a webhook without events", async () => {
    const res = await health(quietHook);
    expect(res.body).toEqual({
      score: 100,
      totalChecked: 0,
      passed: 0,
      failed: 0,
      validators: [{ id: amountCheck.id, name: "amount is a number", passRate: 100 }],
    });
  });

  it("passes every event of a webhook without validators", async () => {
    await insertEventRow(api.services.db.db, bareHook, { anything: 1 });
    const res = await health(bareHook);
    expect(res.body).toEqual({ score: 100, totalChecked: 1, passed: 1, failed: 0, validators: [] });
  });

  it.each([["0"], ["1001"], ["many"]])("rejects limit=%s with a 400", async (limit) => {
    const res = await health(hook, `?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^limit: /);
  });

  it("answers 404 for an unknown webhook and 403 for another owner's", async () => {
    expect((await health("wh_01NOPE")).status).toBe(404);
    expect((await health(hook, "", bob.token)).status).toBe(403);
  });

  it("needs events:read and a credential", async () => {
    const db = api.services.db.db;
    const canvasOnly = await createApiKeyFor(db, alice.userId, { scopes: ["canvas:read"] });
    const eventsRead = await createApiKeyFor(db, alice.userId, { scopes: ["events:read"] });
    expect((await health(hook, "", canvasOnly.key)).status).toBe(403);
    expect((await health(hook, "", eventsRead.key)).status).toBe(200);
    const anonymous = await api.call("GET", `/api/events/${hook}/contract-health`);
    expect(anonymous.status).toBe(401);
  });

  it("is documented in the OpenAPI document", async () => {
    const { body } = await api.call("GET", "/api/openapi.json");
    const operation = body.paths["/api/events/{webhookId}/contract-health"].get;
    expect(operation.summary).toBe("Contract health of a webhook");
    expect(operation.security).toEqual([{ bearerAuth: [] }]);
  });
});

describe("contract health judges each validator on the payload that would reach it", () => {
  let api: ApiHarness;
  let alice: User;
  let shapedHook: string;
  let gatedHook: string;
  let afterTransform: Record<string, any>;
  let asReceived: Record<string, any>;
  let gated: Record<string, any>;
  let shapedEvents: string[];

  beforeAll(async () => {
    api = await startApi();
    const db = api.services.db.db;
    alice = await createUserWithSession(db);
    shapedHook = await insertWebhookRow(db, alice.userId);
    gatedHook = await insertWebhookRow(db, alice.userId);

    // shaped: a transform turns text amounts into numbers before one validator; another
    // validator sits on the webhook itself and sees the payload as received.
    const toNumber = await createNode(api, alice.token, "transform-nodes", {
      name: "amount to number",
      transformMode: "jq",
      template: "{amount: (.amount | tonumber)}",
      inputNodes: [webhookInput(shapedHook)],
    });
    afterTransform = await createNode(api, alice.token, "schema-validators", {
      name: "amount after transform",
      fields: [{ path: "amount", type: "number", required: true }],
      inputNodes: [{ nodeType: "transform", nodeId: toNumber.id }],
    });
    asReceived = await createNode(api, alice.token, "schema-validators", {
      name: "amount as received",
      fields: [{ path: "amount", type: "number", required: true }],
      inputNodes: [webhookInput(shapedHook)],
    });
    shapedEvents = [];
    for (const [i, payload] of [{ amount: "5" }, { amount: 7 }, { amount: "x" }].entries()) {
      shapedEvents.push(await insertEventRow(db, shapedHook, payload, { createdAt: minute(i) }));
    }

    // gated: filter -> delay -> approval -> validator. Paths that would wait go on in the check.
    const keep = await createNode(api, alice.token, "filter-nodes", {
      name: "kept kinds",
      filters: [{ field: "kind", operator: "eq", value: "keep" }],
      inputNodes: [webhookInput(gatedHook)],
    });
    const later = await createNode(api, alice.token, "delay-nodes", {
      name: "later",
      delaySeconds: 60,
      inputNodes: [{ nodeType: "filter", nodeId: keep.id }],
    });
    const gate = await createNode(api, alice.token, "approval-nodes", {
      name: "human check",
      inputNodes: [{ nodeType: "delay", nodeId: later.id }],
    });
    gated = await createNode(api, alice.token, "schema-validators", {
      name: "ok is a boolean",
      fields: [{ path: "ok", type: "boolean", required: true }],
      inputNodes: [{ nodeType: "approval", nodeId: gate.id }],
    });
    const payloads = [
      { kind: "keep", ok: true },
      { kind: "keep", ok: "yes" },
      { kind: "drop", ok: "yes" },
    ];
    for (const [i, payload] of payloads.entries()) {
      await insertEventRow(db, gatedHook, payload, { createdAt: minute(i) });
    }
  });
  afterAll(async () => {
    await api.close();
  });

  const health = (webhookId: string) =>
    api.call("GET", `/api/events/${webhookId}/contract-health`, { token: alice.token });

  it("judges a validator after a transform on the transformed payload", async () => {
    const res = await health(shapedHook);
    expect(res.status).toBe(200);
    // "5": transformed to 5 (accepted after the transform, rejected as received); 7: accepted
    // by both; "x": the transform fails, so only the validator on the webhook judges it.
    // Validators come in graph order, ties by creation order.
    expect(res.body).toEqual({
      score: 33.3,
      totalChecked: 3,
      passed: 1,
      failed: 2,
      validators: [
        { id: afterTransform.id, name: "amount after transform", passRate: 100 },
        { id: asReceived.id, name: "amount as received", passRate: 33.3 },
      ],
    });
  });

  it("goes on past delays and approvals and leaves out events a filter stops", async () => {
    const res = await health(gatedHook);
    expect(res.body).toEqual({
      score: 66.7,
      totalChecked: 3,
      passed: 2,
      failed: 1,
      validators: [{ id: gated.id, name: "ok is a boolean", passRate: 50 }],
    });
  });

  it("leaves out child events its own graph made but keeps events forwarded from elsewhere", async () => {
    const db = api.services.db.db;
    const hook = await insertWebhookRow(db, alice.userId);
    const elsewhere = await insertWebhookRow(db, alice.userId);
    const validator = await createNode(api, alice.token, "schema-validators", {
      name: "n is a number",
      fields: [{ path: "n", type: "number", required: true }],
      inputNodes: [webhookInput(hook)],
    });
    const source = await insertEventRow(db, hook, { n: 1 }, { createdAt: minute(0) });
    // A later path of `source`: the graph already ran for it, so its body is not judged.
    await insertEventRow(db, hook, { n: "made" }, { parentEventId: source, createdAt: minute(1) });
    const outside = await insertEventRow(db, elsewhere, { n: 2 }, { createdAt: minute(2) });
    await insertEventRow(db, hook, { n: "text" }, { parentEventId: outside, createdAt: minute(3) });
    const res = await health(hook);
    expect(res.body).toEqual({
      score: 50,
      totalChecked: 2,
      passed: 1,
      failed: 1,
      validators: [{ id: validator.id, name: "n is a number", passRate: 50 }],
    });
  });

  it("changes nothing: events keep their status and gain no steps", async () => {
    await health(shapedHook);
    await health(gatedHook);
    for (const id of shapedEvents) {
      const event = await api.call("GET", `/api/events/${id}`, { token: alice.token });
      expect(event.body.status).toBe("pending");
      const steps = await api.call("GET", `/api/events/${id}/steps`, { token: alice.token });
      expect(steps.status).toBe(200);
      expect(steps.body).toEqual([]);
    }
  });

  /** The check over `shapedHook`'s live graph, called directly, with the test's clock. */
  async function checkShaped(
    input: Pick<ContractHealthInput, "events" | "outOfTime"> & Partial<ContractHealthInput>,
  ) {
    const live = await liveWebhookGraph(api.services.db, shapedHook);
    return checkContractHealth({
      webhookId: shapedHook,
      payloadFilters: [],
      graph: live.graph,
      order: live.order,
      validators: reachableNodesOf(live, "schemaValidator"),
      transform: api.services.transformPort(),
      patterns: api.services.patternPort(),
      now: () => Date.UTC(2024, 0, 1),
      delayScale: 1,
      ...input,
    });
  }

  it("counts the events it had no time left for as not evaluated", async () => {
    // A fake clock: time passes only while a transform runs; one transform spends the budget.
    let spent = false;
    const port = api.services.transformPort();
    const tally = await checkShaped({
      events: [
        { id: "evt_a", eventType: null, payload: { amount: 7 } },
        { id: "evt_b", eventType: null, payload: { amount: 8 } },
        { id: "evt_c", eventType: null, payload: { amount: 9 } },
      ],
      transform: {
        run: async (call) => {
          const result = await port.run(call);
          spent = true;
          return result;
        },
      },
      // Time for one event only.
      outOfTime: () => spent,
    });
    expect({
      checked: tally.checked,
      passed: tally.passed,
      notEvaluated: tally.notEvaluated,
    }).toEqual({ checked: 1, passed: 1, notEvaluated: 2 });
    expect(tally.validators.map((v) => [v.reached, v.accepted])).toEqual([
      [1, 1],
      [1, 1],
    ]);
  });

  it("stops an event at its next transform once the budget is spent, without reporting an error", async () => {
    let checks = 0;
    const errors: string[] = [];
    const tally = await checkShaped({
      events: [{ id: "evt_a", eventType: null, payload: { amount: 7 } }],
      // Time to start the event, none left by its first transform.
      outOfTime: () => ++checks > 1,
      onError: (eventId) => errors.push(eventId),
    });
    expect({ checked: tally.checked, notEvaluated: tally.notEvaluated }).toEqual({
      checked: 0,
      notEvaluated: 1,
    });
    expect(errors).toEqual([]);
  });
});
