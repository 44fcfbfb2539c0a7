import { type ChatStandIn, startChatStandIn } from "@hookflow/testing";
import { createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertEventRow, insertWebhookRow, webhookInput } from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;

/** AI nodes at the api: validation, tool consent and scope, cycles, and dry runs that call nothing. */
describe("AI nodes", () => {
  let api: ApiHarness;
  let model: ChatStandIn;
  let alice: User;
  let bob: User;
  let source: string;
  let tool: string;

  beforeAll(async () => {
    api = await startApi();
    model = await startChatStandIn();
    const db = api.services.db.db;
    alice = await createUserWithSession(db);
    bob = await createUserWithSession(db);
    source = await insertWebhookRow(db, alice.userId, { name: "orders" });
    tool = await insertWebhookRow(db, alice.userId, { acceptsInternalCalls: true });
  });
  afterAll(async () => {
    await api.close();
    await model.close();
  });

  const body = (extra: Record<string, unknown> = {}) => ({
    name: "checker",
    baseUrl: model.url,
    model: "stand-in-1",
    promptTemplate: "Check {{id}}",
    inputNodes: [webhookInput(source)],
    ...extra,
  });
  const post = (token: string, extra: Record<string, unknown> = {}) =>
    api.call("POST", "/api/ai-nodes", { token, body: body(extra) });

  it("applies the defaults (maxToolCalls 5, no credential, no system prompt)", async () => {
    const node = await createNode(api, alice.token, "ai-nodes", body({ toolWebhookIds: [tool] }));
    expect(node).toMatchObject({
      id: expect.stringMatching(/^ain_/),
      maxToolCalls: 5,
      credentialId: null,
      systemPrompt: "",
      toolWebhookIds: [tool],
    });
  });

  it.each([
    [{ baseUrl: "ftp://models.test" }, "baseUrl: Invalid URL"],
    [{ maxToolCalls: 21 }, "maxToolCalls:"],
    [{ promptTemplate: "" }, "promptTemplate:"],
    [{ model: "" }, "model:"],
  ])("refuses bad input with a 400 naming the field (%#)", async (extra, message) => {
    const res = await post(alice.token, extra);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });

  it("is 403 for a tool webhook without consent or of another owner", async () => {
    const refusing = await insertWebhookRow(api.services.db.db, alice.userId);
    const res = await post(alice.token, { toolWebhookIds: [tool, refusing] });
    expect(res.status).toBe(403);
    expect(res.body.message).toContain("toolWebhookIds.1: webhook");
    expect(res.body.message).toContain("does not accept internal calls");
    const bobs = await insertWebhookRow(api.services.db.db, bob.userId, {
      acceptsInternalCalls: true,
    });
    expect((await post(alice.token, { toolWebhookIds: [bobs] })).status).toBe(403);
  });

  it("rejects a tool that would run the node's own graph again (a cycle)", async () => {
    const selfish = await insertWebhookRow(api.services.db.db, alice.userId, {
      acceptsInternalCalls: true,
    });
    const res = await post(alice.token, {
      inputNodes: [webhookInput(selfish)],
      toolWebhookIds: [selfish],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("cycle");
  });

  it("time travel records the request it would send and calls no model", async () => {
    const hook = await insertWebhookRow(api.services.db.db, alice.userId, { name: "dry" });
    const node = await createNode(
      api,
      alice.token,
      "ai-nodes",
      body({ inputNodes: [webhookInput(hook)], systemPrompt: "Be brief.", toolWebhookIds: [tool] }),
    );
    const snapshot = await api.call("POST", "/api/canvas-snapshots", {
      token: alice.token,
      body: {
        name: "ai",
        nodes: [
          {
            id: `webhook-${hook}`,
            type: "webhook",
            position: { x: 0, y: 0 },
            data: { webhookId: hook },
          },
        ],
        edges: [],
      },
    });
    expect(snapshot.status).toBe(201);
    const eventId = await insertEventRow(api.services.db.db, hook, { id: 77 });
    const before = model.requests.length;
    const res = await api.call("POST", `/api/events/${eventId}/time-travel`, {
      token: alice.token,
      body: { snapshotId: snapshot.body.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.steps).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          node: node.id,
          nodeType: "ai",
          result: "passed",
          wouldCall: {
            url: `${model.url}/chat/completions`,
            model: "stand-in-1",
            messages: [
              { role: "system", content: "Be brief." },
              { role: "user", content: "Check 77" },
            ],
            toolWebhookIds: [tool],
            maxToolCalls: 5,
          },
        }),
      ]),
    );
    expect(model.requests.length).toBe(before);
  });
});
