import { deliveryAttempts, targetDeliveries } from "@hookflow/db";
import { createApiKeyFor, createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { insertEventRow } from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;

let api: ApiHarness;
let alice: User;
let bob: User;

beforeAll(async () => {
  api = await startApi();
  alice = await createUserWithSession(api.database.db);
  bob = await createUserWithSession(api.database.db);
});

afterAll(async () => {
  await api.close();
});

async function webhookOf(user: User, headers: Record<string, string> = {}): Promise<string> {
  const res = await api.call("POST", "/api/webhooks", {
    token: user.token,
    headers,
    body: { name: "w", targetUrl: "https://example.com/hook" },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

function link(id: string) {
  return [{ nodeType: "webhook", nodeId: id }];
}

describe("additional targets", () => {
  it("creates with defaults, reads, lists, updates and deletes", async () => {
    const wh = await webhookOf(alice);
    const created = await api.call("POST", "/api/additional-targets", {
      token: alice.token,
      body: { name: "Audit", url: "https://audit.example.com/in", inputNodes: link(wh) },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Audit",
      url: "https://audit.example.com/in",
      isActive: true,
      maxRetries: 3,
      filters: [],
      payloadTransform: null,
      notifyPrimaryOnFailure: false,
      inputNodes: link(wh),
      healthStatus: "healthy",
      ownerId: alice.userId,
      organizationId: null,
    });
    const id = created.body.id as string;
    expect(id).toMatch(/^tgt_/);
    expect(created.body._id).toBe(id);

    const got = await api.call("GET", `/api/additional-targets/${id}`, { token: alice.token });
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(id);

    const list = await api.call("GET", "/api/additional-targets", { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.map((t: { id: string }) => t.id)).toContain(id);
    expect(list.headers.get("x-total-count")).toBe(String(list.body.length));

    const patched = await api.call("PATCH", `/api/additional-targets/${id}`, {
      token: alice.token,
      body: {
        filters: [{ field: "amount", operator: "gt", value: 10 }],
        payloadTransform: '{"id": "{{id}}"}',
        notifyPrimaryOnFailure: true,
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: "Audit",
      filters: [{ field: "amount", operator: "gt", value: "10" }],
      payloadTransform: '{"id": "{{id}}"}',
      notifyPrimaryOnFailure: true,
    });
    const cleared = await api.call("PATCH", `/api/additional-targets/${id}`, {
      token: alice.token,
      body: { payloadTransform: null },
    });
    expect(cleared.body.payloadTransform).toBeNull();

    const deleted = await api.call("DELETE", `/api/additional-targets/${id}`, {
      token: alice.token,
    });
    expect(deleted.status).toBe(204);
    const gone = await api.call("GET", `/api/additional-targets/${id}`, { token: alice.token });
    expect(gone.status).toBe(404);
  });

  it.each([
    ["name missing", { url: "https://a.example" }, "name"],
    ["url not a URL", { name: "x", url: "not a url" }, "url"],
    ["url not http", { name: "x", url: "ftp://a.example" }, "url"],
    ["maxRetries negative", { name: "x", url: "https://a.example", maxRetries: -1 }, "maxRetries"],
    [
      "a template that is not JSON",
      { name: "x", url: "https://a.example", payloadTransform: "{not json" },
      "payloadTransform",
    ],
    [
      "an input that is not a webhook",
      {
        name: "x",
        url: "https://a.example",
        inputNodes: [{ nodeType: "filter", nodeId: "fltn_1" }],
      },
      "inputNodes.0.nodeType",
    ],
    [
      "a filter without a value",
      { name: "x", url: "https://a.example", filters: [{ field: "a", operator: "eq" }] },
      "filters.0.value",
    ],
  ])("rejects %s with 400 naming the field", async (_label, body, field) => {
    const res = await api.call("POST", "/api/additional-targets", { token: alice.token, body });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it("refuses links to unknown webhooks and to another owner's webhook as unknown", async () => {
    const bobs = await webhookOf(bob);
    for (const nodeId of ["wh_missing", bobs]) {
      const res = await api.call("POST", "/api/additional-targets", {
        token: alice.token,
        body: { name: "x", url: "https://a.example", inputNodes: link(nodeId) },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`inputNodes.0.nodeId: Unknown webhook ${nodeId}`);
    }
    const duplicate = await webhookOf(alice);
    const twice = await api.call("POST", "/api/additional-targets", {
      token: alice.token,
      body: {
        name: "x",
        url: "https://a.example",
        inputNodes: [...link(duplicate), ...link(duplicate)],
      },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toContain("inputNodes.1.nodeId");
  });

  it("keeps another owner's target out of reach: 403 on read, write and delete, absent from lists", async () => {
    const wh = await webhookOf(alice);
    const created = await api.call("POST", "/api/additional-targets", {
      token: alice.token,
      body: { name: "private", url: "https://a.example", inputNodes: link(wh) },
    });
    const id = created.body.id as string;
    expect(
      (await api.call("GET", `/api/additional-targets/${id}`, { token: bob.token })).status,
    ).toBe(403);
    const patch = await api.call("PATCH", `/api/additional-targets/${id}`, {
      token: bob.token,
      body: { url: "https://bob.example" },
    });
    expect(patch.status).toBe(403);
    expect(
      (await api.call("DELETE", `/api/additional-targets/${id}`, { token: bob.token })).status,
    ).toBe(403);
    const list = await api.call("GET", "/api/additional-targets", { token: bob.token });
    expect(list.body.map((t: { id: string }) => t.id)).not.toContain(id);
    // Bob cannot hang his own target on Alice's webhook either.
    const hang = await api.call("POST", "/api/additional-targets", {
      token: bob.token,
      body: { name: "tap", url: "https://bob.example", inputNodes: link(wh) },
    });
    expect(hang.status).toBe(400);
    const stillAlices = await api.call("GET", `/api/additional-targets/${id}`, {
      token: alice.token,
    });
    expect(stillAlices.body.url).toBe("https://a.example");
  });

  it("needs webhooks:read and webhooks:write scopes", async () => {
    const reader = await createApiKeyFor(api.database.db, alice.userId, {
      scopes: ["webhooks:read"],
    });
    const list = await api.call("GET", "/api/additional-targets", { token: reader.key });
    expect(list.status).toBe(200);
    const write = await api.call("POST", "/api/additional-targets", {
      token: reader.key,
      body: { name: "x", url: "https://a.example" },
    });
    expect(write.status).toBe(403);
    const canvasOnly = await createApiKeyFor(api.database.db, alice.userId, {
      scopes: ["canvas:read"],
    });
    expect(
      (await api.call("GET", "/api/additional-targets", { token: canvasOnly.key })).status,
    ).toBe(403);
  });

  it("limits maxRetries by the owner's plan: free 3, pro 10, organizations by their own plan", async () => {
    const carol = await createUserWithSession(api.database.db);
    const over = await api.call("POST", "/api/additional-targets", {
      token: carol.token,
      body: { name: "x", url: "https://a.example", maxRetries: 4 },
    });
    expect(over.status).toBe(403);
    expect(over.body.message).toContain("free plan's limit of 3");
    const ok = await api.call("POST", "/api/additional-targets", {
      token: carol.token,
      body: { name: "x", url: "https://a.example", maxRetries: 3 },
    });
    expect(ok.status).toBe(201);
    const patchOver = await api.call("PATCH", `/api/additional-targets/${ok.body.id}`, {
      token: carol.token,
      body: { maxRetries: 5 },
    });
    expect(patchOver.status).toBe(403);

    await api.database.sql`update users set plan = 'pro' where id = ${carol.userId}`;
    const pro = await api.call("POST", "/api/additional-targets", {
      token: carol.token,
      body: { name: "x", url: "https://a.example", maxRetries: 10 },
    });
    expect(pro.status).toBe(201);
    const proOver = await api.call("POST", "/api/additional-targets", {
      token: carol.token,
      body: { name: "x", url: "https://a.example", maxRetries: 11 },
    });
    expect(proOver.status).toBe(403);
    expect(proOver.body.message).toContain("pro plan's limit of 10");

    // A pro user acting for a free organization gets the organization's limit.
    const org = await createOrganizationWith(api.database.db, [
      { userId: carol.userId, role: "owner" },
    ]);
    const orgOver = await api.call("POST", "/api/additional-targets", {
      token: carol.token,
      headers: { "X-Organization-Id": org },
      body: { name: "x", url: "https://a.example", maxRetries: 5 },
    });
    expect(orgOver.status).toBe(403);
    await api.database.sql`update organizations set plan = 'pro' where id = ${org}`;
    const orgOk = await api.call("POST", "/api/additional-targets", {
      token: carol.token,
      headers: { "X-Organization-Id": org },
      body: { name: "x", url: "https://a.example", maxRetries: 5 },
    });
    expect(orgOk.status).toBe(201);
    expect(orgOk.body.organizationId).toBe(org);
  });

  it("links a target to several webhooks; deleting a webhook removes only its link", async () => {
    const [a, b] = [await webhookOf(alice), await webhookOf(alice)];
    const created = await api.call("POST", "/api/additional-targets", {
      token: alice.token,
      body: { name: "both", url: "https://a.example", inputNodes: [...link(a), ...link(b)] },
    });
    expect(created.status).toBe(201);
    expect((await api.call("DELETE", `/api/webhooks/${a}`, { token: alice.token })).status).toBe(
      204,
    );
    const after = await api.call("GET", `/api/additional-targets/${created.body.id}`, {
      token: alice.token,
    });
    expect(after.body.inputNodes).toEqual(link(b));
  });

  it("shows each target's delivery on the event and its attempts under /deliveries", async () => {
    const wh = await webhookOf(alice);
    const created = await api.call("POST", "/api/additional-targets", {
      token: alice.token,
      body: { name: "t", url: "https://t.example/in", inputNodes: link(wh) },
    });
    const targetId = created.body.id as string;
    const eventId = await insertEventRow(api.database.db, wh, { a: 1 }, { status: "delivered" });
    await api.database.db.insert(targetDeliveries).values({
      eventId,
      targetId,
      webhookId: wh,
      run: 0,
      body: "{}",
      status: "failed",
      attemptCount: 1,
      lastStatusCode: 500,
      lastError: "HTTP 500",
      notifyStatus: "sent",
    });
    await api.database.db.insert(deliveryAttempts).values({
      id: "att_target_1",
      eventId,
      webhookId: wh,
      targetUrl: "https://t.example/in",
      isAdditionalTarget: true,
      targetId,
      attempt: 1,
      statusCode: 500,
      success: false,
      error: "HTTP 500",
    });
    const event = await api.call("GET", `/api/events/${eventId}`, { token: alice.token });
    expect(event.status).toBe(200);
    expect(event.body.status).toBe("delivered");
    expect(event.body.targets).toEqual([
      {
        targetId,
        status: "failed",
        attempts: 1,
        lastStatusCode: 500,
        lastError: "HTTP 500",
        notification: "sent",
      },
    ]);
    const deliveries = await api.call("GET", `/api/events/${eventId}/deliveries`, {
      token: alice.token,
    });
    expect(deliveries.body).toEqual([
      expect.objectContaining({ isAdditionalTarget: true, targetId, statusCode: 500 }),
    ]);
  });

  it("removes a deleted webhook from every chain and shows a chain's steps on the origin event", async () => {
    const [a, b] = [await webhookOf(alice), await webhookOf(alice)];
    const origin = await api.call("POST", "/api/webhooks", {
      token: alice.token,
      body: { name: "origin", targetUrl: "https://example.com/o", chainWebhookIds: [a, b] },
    });
    const w = origin.body.id as string;
    const rootId = await insertEventRow(api.database.db, w, { n: 1 }, { status: "delivered" });
    const stepId = await insertEventRow(
      api.database.db,
      a,
      { original: { n: 1 }, previous: { statusCode: 200, body: null } },
      { status: "failed", parentEventId: rootId, chainStep: 1, chainOriginEventId: rootId },
    );
    const shown = await api.call("GET", `/api/events/${rootId}`, { token: alice.token });
    expect(shown.body.chain).toEqual({
      originEventId: rootId,
      steps: [
        { step: 1, webhookId: a, eventId: stepId, status: "failed" },
        { step: 2, webhookId: b, eventId: null, status: "not_reached" },
      ],
    });
    const fromStep = await api.call("GET", `/api/events/${stepId}`, { token: alice.token });
    expect(fromStep.body.chain.steps[0]).toMatchObject({ step: 1, eventId: stepId });

    expect((await api.call("DELETE", `/api/webhooks/${b}`, { token: alice.token })).status).toBe(
      204,
    );
    const after = await api.call("GET", `/api/webhooks/${w}`, { token: alice.token });
    expect(after.body.chainWebhookIds).toEqual([a]);
  });

  it("lets one webhook feed at most 25 targets", async () => {
    const wh = await webhookOf(alice);
    for (let i = 0; i < 25; i++) {
      const ok = await api.call("POST", "/api/additional-targets", {
        token: alice.token,
        body: { name: `t${i}`, url: "https://a.example", inputNodes: link(wh) },
      });
      expect(ok.status).toBe(201);
    }
    const over = await api.call("POST", "/api/additional-targets", {
      token: alice.token,
      body: { name: "one too many", url: "https://a.example", inputNodes: link(wh) },
    });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(
      `inputNodes.0.nodeId: webhook ${wh} already feeds 25 additional targets, the most one webhook may have`,
    );
    // Editing a target that already feeds the webhook stays possible.
    const list = await api.call("GET", "/api/additional-targets?limit=1", { token: alice.token });
    const patched = await api.call("PATCH", `/api/additional-targets/${list.body[0].id}`, {
      token: alice.token,
      body: { inputNodes: link(wh), name: "renamed" },
    });
    expect(patched.status).toBe(200);
  });
});
