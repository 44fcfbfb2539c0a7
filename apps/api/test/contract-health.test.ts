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
