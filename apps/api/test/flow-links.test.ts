import { createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertWebhookRow, webhookInput } from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;

/** Flow links at the api: consent, scope, cycles, forwarding limits, and their lifetime. */
describe("flow links", () => {
  let api: ApiHarness;
  let alice: User;
  let bob: User;
  let source: string;
  let consenting: string;
  let refusing: string;

  beforeAll(async () => {
    api = await startApi({ GRAPH_MAX_DESCENDANTS: "3" });
    const db = api.services.db.db;
    alice = await createUserWithSession(db);
    bob = await createUserWithSession(db);
    source = await insertWebhookRow(db, alice.userId);
    consenting = await insertWebhookRow(db, alice.userId, { acceptsInternalCalls: true });
    refusing = await insertWebhookRow(db, alice.userId, { acceptsInternalCalls: false });
  });
  afterAll(async () => {
    await api.close();
  });

  const post = (token: string, body: Record<string, unknown>, headers = {}) =>
    api.call("POST", "/api/flow-links", { token, body, headers });
  const fromWebhook = (webhookId: string, extra: Record<string, unknown> = {}) => ({
    sourceNodeType: "webhook",
    sourceNodeId: source,
    webhookId,
    ...extra,
  });

  it("links a source to a consenting webhook (name and mode defaulted, input derived)", async () => {
    const link = await createNode(api, alice.token, "flow-links", fromWebhook(consenting));
    expect(link).toMatchObject({
      id: expect.stringMatching(/^flk_/),
      name: "flow link",
      mode: "async",
      sourceNodeType: "webhook",
      inputNodes: [{ nodeType: "webhook", nodeId: source }],
    });
  });

  it("is 403 without the webhook's consent, and 403 across organizations", async () => {
    const refused = await post(alice.token, fromWebhook(refusing));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("does not accept internal calls");

    const org = await createOrganizationWith(api.services.db.db, [
      { userId: alice.userId, role: "owner" },
    ]);
    const orgHook = await insertWebhookRow(api.services.db.db, alice.userId, {
      organizationId: org,
      acceptsInternalCalls: true,
    });
    const crossOrg = await post(alice.token, fromWebhook(orgHook));
    expect(crossOrg.status).toBe(403);
    expect(crossOrg.body.message).toContain("not of this node's organization or personal space");

    const bobHook = await insertWebhookRow(api.services.db.db, bob.userId, {
      acceptsInternalCalls: true,
    });
    expect((await post(alice.token, fromWebhook(bobHook))).status).toBe(403);
    // Bob cannot hang a link off Alice's webhook either (an unknown source to him).
    const foreignSource = await post(bob.token, {
      sourceNodeType: "webhook",
      sourceNodeId: source,
      webhookId: bobHook,
    });
    expect(foreignSource.status).toBe(400);
    expect(foreignSource.body.message).toBe(`inputNodes.0.nodeId: Unknown webhook ${source}`);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const badMode = await post(alice.token, fromWebhook(consenting, { mode: "later" }));
    expect(badMode.status).toBe(400);
    expect(badMode.body.message).toContain("mode:");
    const badType = await post(
      alice.token,
      fromWebhook(consenting, { sourceNodeType: "scheduledWorkflow" }),
    );
    expect(badType.status).toBe(400);
    expect(badType.body.message).toContain("sourceNodeType: a flow link starts at a webhook");
    const withInputs = await post(
      alice.token,
      fromWebhook(consenting, { inputNodes: [webhookInput(source)] }),
    );
    expect(withInputs.status).toBe(400);
    expect(withInputs.body.message).toContain("inputNodes: a flowLink's input is its source");
  });

  it("rejects a link cycle", async () => {
    const a = await insertWebhookRow(api.services.db.db, alice.userId, {
      acceptsInternalCalls: true,
    });
    const b = await insertWebhookRow(api.services.db.db, alice.userId, {
      acceptsInternalCalls: true,
    });
    const self = await post(alice.token, {
      sourceNodeType: "webhook",
      sourceNodeId: a,
      webhookId: a,
    });
    expect(self.status).toBe(400);
    expect(self.body.message).toContain("cycle");
    await createNode(api, alice.token, "flow-links", {
      sourceNodeType: "webhook",
      sourceNodeId: a,
      webhookId: b,
    });
    const back = await post(alice.token, {
      sourceNodeType: "webhook",
      sourceNodeId: b,
      webhookId: a,
    });
    expect(back.status).toBe(400);
    expect(back.body.message).toContain("cycle");
  });

  it("counts against the forwarding limits", async () => {
    const db = api.services.db.db;
    const hub = await insertWebhookRow(db, alice.userId);
    const targets = await Promise.all(
      [0, 1, 2, 3].map(() => insertWebhookRow(db, alice.userId, { acceptsInternalCalls: true })),
    );
    for (const target of targets.slice(0, 3)) {
      await createNode(api, alice.token, "flow-links", {
        sourceNodeType: "webhook",
        sourceNodeId: hub,
        webhookId: target,
      });
    }
    const fourth = await post(alice.token, {
      sourceNodeType: "webhook",
      sourceNodeId: hub,
      webhookId: targets[3],
    });
    expect(fourth.status).toBe(400);
    expect(fourth.body.message).toContain("GRAPH_MAX_DESCENDANTS");
  });

  it("goes with its source and with its webhook", async () => {
    const db = api.services.db.db;
    const target = await insertWebhookRow(db, alice.userId, { acceptsInternalCalls: true });
    const transform = await createNode(api, alice.token, "transform-nodes", {
      name: "t",
      inputNodes: [webhookInput(source)],
      transformMode: "jq",
      template: ".",
    });
    const viaTransform = await createNode(api, alice.token, "flow-links", {
      sourceNodeType: "transform",
      sourceNodeId: transform.id,
      webhookId: target,
    });
    const viaWebhook = await createNode(api, alice.token, "flow-links", fromWebhook(target));
    const del = (path: string) => api.call("DELETE", path, { token: alice.token });
    expect((await del(`/api/transform-nodes/${transform.id}`)).status).toBe(204);
    const get = (id: string) => api.call("GET", `/api/flow-links/${id}`, { token: alice.token });
    expect((await get(viaTransform.id)).status).toBe(404);
    expect((await get(viaWebhook.id)).status).toBe(200);
    expect((await del(`/api/webhooks/${target}`)).status).toBe(204);
    expect((await get(viaWebhook.id)).status).toBe(404);
  });
});
