import { createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertWebhookRow, webhookInput } from "./nodes-fixtures.js";

const addresses = (count: number) => Array.from({ length: count }, (_, i) => `r${i}@example.com`);

describe("mail recipients of approval nodes", () => {
  let api: ApiHarness;
  let token: string;
  let webhookId: string;

  beforeAll(async () => {
    api = await startApi({ MAIL_MAX_RECIPIENTS: "3" });
    const user = await createUserWithSession(api.database.db);
    token = user.token;
    webhookId = await insertWebhookRow(api.database.db, user.userId);
  });
  afterAll(async () => {
    await api?.close();
  });

  const gateBody = (notifyEmails: string[]) => ({
    name: "refund gate",
    inputNodes: [webhookInput(webhookId)],
    notifyEmails,
  });

  it("refuses a gate with more notifyEmails than MAIL_MAX_RECIPIENTS, naming the field", async () => {
    const res = await api.call("POST", "/api/approval-nodes", {
      token,
      body: gateBody(addresses(4)),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      message: "notifyEmails: at most 3 recipients per mail (MAIL_MAX_RECIPIENTS), got 4",
      error: "Bad Request",
    });
    const list = await api.call("GET", "/api/approval-nodes", { token });
    expect(list.body).toEqual([]);
  });

  it("refuses more than 50 whatever the setting", async () => {
    const res = await api.call("POST", "/api/approval-nodes", {
      token,
      body: gateBody(addresses(51)),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^notifyEmails: /);
  });

  it("accepts a gate at the cap, and refuses a PATCH that goes over it", async () => {
    const gate = await createNode(api, token, "approval-nodes", gateBody(addresses(3)));
    expect(gate.notifyEmails).toEqual(addresses(3));
    const over = await api.call("PATCH", `/api/approval-nodes/${gate.id}`, {
      token,
      body: { notifyEmails: addresses(5) },
    });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(
      "notifyEmails: at most 3 recipients per mail (MAIL_MAX_RECIPIENTS), got 5",
    );
    const renamed = await api.call("PATCH", `/api/approval-nodes/${gate.id}`, {
      token,
      body: { name: "renamed gate" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.notifyEmails).toEqual(addresses(3));
  });

  it("documents the cap and the refused outbox status in the OpenAPI document", async () => {
    const { body } = await api.call("GET", "/api/openapi.json");
    const create = body.paths["/api/approval-nodes"].post;
    expect(create.description).toMatch(/at most 3 addresses \(MAIL_MAX_RECIPIENTS; 400/);
    expect(JSON.stringify(body.components.schemas)).toMatch(/MAIL_RATE_LIMIT_PER_HOUR/);
    expect(body.components.schemas.OutboxMail.properties.status.enum).toContain("refused");
  });
});
