import { recordMail } from "@hookflow/db";
import { GOOGLE_TEST_CLIENT, type GoogleStandIn, startGoogleStandIn } from "@hookflow/testing";
import { createApiKeyFor, createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { insertWebhookRow } from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;

describe("post-delivery action families", () => {
  let api: ApiHarness;
  let alice: User;
  let mallory: User;
  let hook: string;
  beforeAll(async () => {
    api = await startApi();
    alice = await createUserWithSession(api.database.db);
    mallory = await createUserWithSession(api.database.db);
    hook = await insertWebhookRow(api.database.db, alice.userId);
  });
  afterAll(async () => {
    await api.close();
  });
  const post = (path: string, body: unknown, token = alice.token) =>
    api.call("POST", `/api/${path}`, { token, body });
  const credential = async (type: string, data: unknown, token = alice.token) =>
    (await post("credentials", { name: type, type, data }, token)).body.id as string;
  const fromHook = () => [{ nodeType: "webhook", nodeId: hook }];

  it("creates an HTTP action with its defaults and serves it at GET, PATCH, list and DELETE", async () => {
    const created = await post("http-actions", {
      name: "notify CRM",
      url: "https://crm.example.com/orders/{{payload.id}}",
      inputNodes: fromHook(),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^hta_/),
      name: "notify CRM",
      method: "POST",
      headers: {},
      triggerOn: "success",
      isActive: true,
      organizationId: null,
      inputNodes: fromHook(),
    });
    const id = created.body.id;
    const patched = await api.call("PATCH", `/api/http-actions/${id}`, {
      token: alice.token,
      body: { triggerOn: "always", method: "DELETE" },
    });
    expect(patched.body).toMatchObject({
      triggerOn: "always",
      method: "DELETE",
      name: "notify CRM",
    });
    const list = await api.call("GET", "/api/http-actions", { token: alice.token });
    expect(list.body.map((a: { id: string }) => a.id)).toContain(id);
    expect(
      (await api.call("GET", `/api/http-actions/${id}`, { token: mallory.token })).status,
    ).toBe(403);
    expect(
      (await api.call("DELETE", `/api/http-actions/${id}`, { token: alice.token })).status,
    ).toBe(204);
    expect((await api.call("GET", `/api/http-actions/${id}`, { token: alice.token })).status).toBe(
      404,
    );
  });

  it.each([
    ["no inputNodes", "http-actions", { url: "https://a.example.com" }, /^inputNodes: /],
    ["a templated host", "http-actions", { url: "https://{{payload.host}}/x" }, /^url: /],
    ["a relative URL", "http-actions", { url: "/hook" }, /^url: /],
    [
      "an unknown method",
      "http-actions",
      { url: "https://a.example.com", method: "TRACE" },
      /^method: /,
    ],
    [
      "a header Hookflow sets",
      "http-actions",
      { url: "https://a.example.com", headers: { Host: "x" } },
      /^headers/,
    ],
    [
      "an unknown triggerOn",
      "http-actions",
      { url: "https://a.example.com", triggerOn: "sometimes" },
      /^triggerOn: /,
    ],
    [
      "an unknown platform",
      "notification-actions",
      { platform: "teams", webhookUrl: "https://hooks.slack.com/x" },
      /^platform: /,
    ],
    [
      "custom without a template",
      "notification-actions",
      { platform: "slack", webhookUrl: "https://hooks.slack.com/x", templatePreset: "custom" },
      /^customTemplate: /,
    ],
    [
      "a custom template that is not JSON",
      "notification-actions",
      {
        platform: "slack",
        webhookUrl: "https://hooks.slack.com/x",
        templatePreset: "custom",
        customTemplate: "{text",
      },
      /^customTemplate: /,
    ],
    [
      "a webhookUrl that is not http(s)",
      "notification-actions",
      { platform: "discord", webhookUrl: "ftp://x" },
      /^webhookUrl: /,
    ],
  ])("refuses %s with 400 naming the field", async (_label, path, body, message) => {
    const inputNodes =
      (body as { inputNodes?: unknown }).inputNodes ??
      (_label === "no inputNodes" ? undefined : fromHook());
    const res = await post(path, { name: "x", ...body, ...(inputNodes ? { inputNodes } : {}) });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it("refuses an action as the input of a node, and an action of another owner's webhook", async () => {
    const action = await post("http-actions", {
      name: "a",
      url: "https://a.example.com",
      inputNodes: fromHook(),
    });
    const filter = await post("filter-nodes", {
      name: "f",
      filters: [{ field: "a", operator: "exists" }],
      inputNodes: [{ nodeType: "httpAction", nodeId: action.body.id }],
    });
    expect(filter.status).toBe(400);
    expect(filter.body.message).toMatch(/^inputNodes\.0\.nodeType: an action cannot be the input/);
    const foreign = await post(
      "http-actions",
      { name: "a", url: "https://a.example.com", inputNodes: fromHook() },
      mallory.token,
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe(`inputNodes.0.nodeId: Unknown webhook ${hook}`);
  });

  it("takes a bearer or basic credential of its own scope, and keeps the credential from being deleted", async () => {
    const bearer = await credential("bearer", { token: "secret-token" });
    const smtp = await credential("smtp", { host: "smtp.example.com" });
    const others = await credential("bearer", { token: "t" }, mallory.token);
    const base = { name: "auth", url: "https://a.example.com", inputNodes: fromHook() };
    expect((await post("http-actions", { ...base, credentialId: "cred_nope" })).body.message).toBe(
      "credentialId: Unknown credential cred_nope",
    );
    expect((await post("http-actions", { ...base, credentialId: others })).body.message).toBe(
      `credentialId: Unknown credential ${others}`,
    );
    const wrongType = await post("http-actions", { ...base, credentialId: smtp });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toMatch(/is of type smtp; this node needs bearer or basic/);
    const ok = await post("http-actions", { ...base, credentialId: bearer });
    expect(ok.status).toBe(201);
    expect(JSON.stringify(ok.body)).not.toMatch(/secret-token/);
    const del = await api.call("DELETE", `/api/credentials/${bearer}`, { token: alice.token });
    expect(del.status).toBe(409);
    expect(del.body.message).toMatch(ok.body.id);

    const org = await createOrganizationWith(api.database.db, [
      { userId: alice.userId, role: "owner" },
    ]);
    const orgHook = await insertWebhookRow(api.database.db, alice.userId, { organizationId: org });
    const crossScope = await api.call("POST", "/api/http-actions", {
      token: alice.token,
      headers: { "x-organization-id": org },
      body: {
        ...base,
        inputNodes: [{ nodeType: "webhook", nodeId: orgHook }],
        credentialId: bearer,
      },
    });
    expect(crossScope.status).toBe(400);
    expect(crossScope.body.message).toMatch(/belongs to another organization or personal space/);
  });

  it("creates notification actions with the default preset", async () => {
    const res = await post("notification-actions", {
      name: "slack",
      platform: "slack",
      webhookUrl: "https://hooks.slack.com/services/T/B/X",
      inputNodes: fromHook(),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      templatePreset: "default",
      triggerOn: "success",
      isActive: true,
    });
  });

  it("needs canvas:write to create and answers 401 without a credential", async () => {
    const reader = await createApiKeyFor(api.database.db, alice.userId, {
      scopes: ["canvas:read"],
    });
    const body = { name: "a", url: "https://a.example.com", inputNodes: fromHook() };
    expect((await post("http-actions", body, reader.key)).status).toBe(403);
    expect((await api.call("POST", "/api/http-actions", { body })).status).toBe(401);
  });

  it("creates an email action and caps its literal recipients at MAIL_MAX_RECIPIENTS", async () => {
    const ok = await post("email-actions", {
      name: "mail",
      to: "{{payload.email}}, ops@example.com",
      subject: "Order {{payload.id}}",
      body: "<p>{{payload.id}}</p>",
      inputNodes: fromHook(),
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      id: expect.stringMatching(/^ema_/),
      triggerOn: "success",
      isActive: true,
    });
    const many = Array.from({ length: 11 }, (_, i) => `u${i}@example.com`).join(",");
    const tooMany = await post("email-actions", {
      name: "m",
      to: many,
      subject: "s",
      body: "b",
      inputNodes: fromHook(),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/^to: at most 10 recipients/);
    const noBody = await post("email-actions", {
      name: "m",
      to: "a@example.com",
      subject: "s",
      inputNodes: fromHook(),
    });
    expect(noBody.body.message).toMatch(/^body: /);
  });

  it("lists an email action's outbox to its owner only", async () => {
    const action = await post("email-actions", {
      name: "mail",
      to: "a@example.com",
      subject: "s",
      body: "b",
      inputNodes: fromHook(),
    });
    await recordMail(api.database.db, {
      id: "mail_01TEST",
      sourceType: "emailAction",
      sourceId: action.body.id,
      eventId: null,
      to: ["a@example.com"],
      subject: "Hello",
      html: "<p>hi</p>",
      text: "hi",
      status: "outbox",
      error: null,
      createdAt: new Date(),
      sentAt: null,
    });
    const path = `/api/email-actions/${action.body.id}/outbox`;
    const mine = await api.call("GET", path, { token: alice.token });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("x-total-count")).toBe("1");
    expect(mine.body).toEqual([
      expect.objectContaining({
        id: "mail_01TEST",
        subject: "Hello",
        status: "outbox",
        to: ["a@example.com"],
      }),
    ]);
    expect((await api.call("GET", path, { token: mallory.token })).status).toBe(403);
    expect(
      (await api.call("GET", "/api/email-actions/ema_unknown/outbox", { token: alice.token }))
        .status,
    ).toBe(404);
  });

  it("creates a mongo action naming a mongodb credential, whose URI is shown only redacted", async () => {
    const credentialId = await credential("mongodb", {
      connectionUri: "mongodb://app:pw-secret@db.example.com/shop",
    });
    const bearer = await credential("bearer", { token: "t" });
    const base = {
      name: "m",
      database: "shop",
      collection: "orders",
      document: '{"id":"{{payload.id}}"}',
      inputNodes: fromHook(),
    };
    const ok = await post("mongo-actions", { ...base, credentialId });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      operation: "insertOne",
      credentialId,
      id: expect.stringMatching(/^mga_/),
    });
    expect(JSON.stringify(ok.body)).not.toMatch(/pw-secret/);
    const cred = await api.call("GET", `/api/credentials/${credentialId}`, { token: alice.token });
    expect(cred.body.preview).toEqual({ connectionUri: "mongodb://app:****@db.example.com/shop" });
    expect((await post("mongo-actions", { ...base, credentialId: bearer })).body.message).toMatch(
      /needs mongodb/,
    );
    expect(
      (await post("mongo-actions", { ...base, credentialId, operation: "updateOne" })).body.message,
    ).toMatch(/^filter: required for updateOne/);
    expect(
      (await post("mongo-actions", { ...base, credentialId, document: "{" })).body.message,
    ).toMatch(/^document: the JSON template is not valid JSON/);
    expect(
      (await post("mongo-actions", { ...base, credentialId, database: "a/b" })).body.message,
    ).toMatch(/^database: /);
  });

  it("refuses a 21st action on one webhook, naming the input", async () => {
    const crowded = await insertWebhookRow(api.database.db, alice.userId);
    const body = {
      url: "https://a.example.com",
      inputNodes: [{ nodeType: "webhook", nodeId: crowded }],
    };
    for (let i = 0; i < 20; i++) {
      expect((await post("http-actions", { name: `a${i}`, ...body })).status).toBe(201);
    }
    const over = await post("notification-actions", {
      name: "one too many",
      platform: "slack",
      webhookUrl: "https://hooks.slack.com/x",
      inputNodes: body.inputNodes,
    });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(
      `inputNodes.0.nodeId: ${crowded} already feeds 20 actions (at most 20 per webhook or node)`,
    );
  });

  describe("Google families", () => {
    let google: GoogleStandIn;
    let gapi: ApiHarness;
    beforeAll(async () => {
      google = await startGoogleStandIn();
      gapi = await startApi({
        GOOGLE_API_BASE_URL: google.url,
        GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
      });
    });
    afterAll(async () => {
      await gapi.close();
      await google.close();
    });

    async function setup() {
      const user = await createUserWithSession(gapi.database.db);
      const webhook = await insertWebhookRow(gapi.database.db, user.userId);
      const cred = await gapi.call("POST", "/api/credentials", {
        token: user.token,
        body: {
          name: "gmail",
          type: "google_oauth",
          data: {
            ...GOOGLE_TEST_CLIENT,
            accessToken: "ya29.expired",
            expiresAt: "2020-01-01T00:00:00Z",
          },
        },
      });
      return { user, webhook, credentialId: cred.body.id as string };
    }

    it("validates gmail-actions per operation and sheets-actions per operation", async () => {
      const { user, webhook, credentialId } = await setup();
      const inputNodes = [{ nodeType: "webhook", nodeId: webhook }];
      const call = (path: string, body: Record<string, unknown>) =>
        gapi.call("POST", `/api/${path}`, {
          token: user.token,
          body: { name: "g", inputNodes, credentialId, ...body },
        });
      const ok = await call("gmail-actions", {
        operationConfig: { to: "{{payload.email}}", subject: "Hi", body: "x" },
      });
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({
        operation: "send",
        aiEnabled: false,
        triggerOn: "success",
        id: expect.stringMatching(/^gma_/),
      });
      const missing = await call("gmail-actions", {
        operation: "add_labels",
        operationConfig: { messageId: "m" },
      });
      expect(missing.body.message).toMatch(/^operationConfig\.labelIds: /);
      const unknownField = await call("gmail-actions", {
        operation: "trash",
        operationConfig: { messageId: "m", extra: "x" },
      });
      expect(unknownField.status).toBe(400);
      const failure = await call("gmail-actions", {
        operation: "list_labels",
        triggerOn: "failure",
      });
      expect(failure.body.message).toMatch(/^triggerOn: /);
      const sheet = await call("sheets-actions", {
        spreadsheetId: "abc",
        columns: ["{{payload.id}}"],
      });
      expect(sheet.body).toMatchObject({ sheetName: "Sheet1", operation: "append_row" });
      const noCell = await call("sheets-actions", {
        spreadsheetId: "abc",
        operation: "update_cell",
        columns: ["x"],
      });
      expect(noCell.body.message).toMatch(/^cell: required for update_cell/);
      const badSheet = await call("sheets-actions", { spreadsheetId: "a/b", columns: ["x"] });
      expect(badSheet.body.message).toMatch(/^spreadsheetId: /);
    });

    it("lists the account's labels, refreshing the token, to the credential's owner only", async () => {
      const { user, credentialId } = await setup();
      const res = await gapi.call("GET", `/api/gmail-actions/labels/${credentialId}`, {
        token: user.token,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { id: "INBOX", name: "INBOX", type: "system" },
        { id: "Label_7", name: "Invoices", type: "user" },
      ]);
      expect(google.calls.slice(-2).map((c) => c.url)).toEqual([
        "/token",
        "/gmail/v1/users/me/labels",
      ]);
      const other = await createUserWithSession(gapi.database.db);
      expect(
        (
          await gapi.call("GET", `/api/gmail-actions/labels/${credentialId}`, {
            token: other.token,
          })
        ).status,
      ).toBe(403);
      const bearer = await gapi.call("POST", "/api/credentials", {
        token: user.token,
        body: { name: "b", type: "bearer", data: { token: "t" } },
      });
      expect(
        (
          await gapi.call("GET", `/api/gmail-actions/labels/${bearer.body.id}`, {
            token: user.token,
          })
        ).status,
      ).toBe(400);
      google.failNext("GET", "/gmail/v1/users/me/labels", 500);
      const down = await gapi.call("GET", `/api/gmail-actions/labels/${credentialId}`, {
        token: user.token,
      });
      expect(down.status).toBe(503);
      expect(JSON.stringify(down.body)).not.toMatch(/ya29/);
    });
  });
});
