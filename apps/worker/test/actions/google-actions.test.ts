import { credentials } from "@hookflow/db";
import { createKeyRing, credentialSealContext, newId, type Sealed } from "@hookflow/domain";
import {
  GOOGLE_TEST_CLIENT,
  type GoogleCall,
  type GoogleStandIn,
  type Receiver,
  startGoogleStandIn,
  startReceiver,
} from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, fromWebhook } from "../pipeline/pipeline-harness.js";
import { waitForActionRuns } from "./actions-harness.js";

describe("Sheets and Gmail actions against a local Google stand-in", () => {
  let h: WorkerHarness;
  let google: GoogleStandIn;
  let target: Receiver;
  beforeAll(async () => {
    google = await startGoogleStandIn();
    target = await startReceiver();
    h = await startWorkerHarness({
      GOOGLE_API_BASE_URL: google.url,
      GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
    });
  });
  afterAll(async () => {
    await h.close();
    await google.close();
    await target.close();
  });

  async function googleCredential(overrides: Record<string, unknown> = {}, ownerId = h.ownerId) {
    const id = newId("credential");
    const data = {
      accessToken: google.accessToken(),
      refreshToken: GOOGLE_TEST_CLIENT.refreshToken,
      clientId: GOOGLE_TEST_CLIENT.clientId,
      clientSecret: GOOGLE_TEST_CLIENT.clientSecret,
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      ...overrides,
    };
    await h.database.db.insert(credentials).values({
      id,
      ownerId,
      organizationId: null,
      name: "google",
      type: "google_oauth",
      data: ringOf().seal(JSON.stringify(data), credentialSealContext(id)),
    });
    return id;
  }
  /** The worker's key ring (same keys as its services). */
  const ringOf = () => createKeyRing(h.services.config.encryptionKeys);

  /** Fires one action of `family` for one event; returns the Google calls it made. */
  async function run(
    family: "sheetsAction" | "gmailAction",
    config: Record<string, unknown>,
    payload: unknown = { id: "A-1", customer: { name: "Ada", email: "ada@example.com" } },
  ) {
    const webhook = await h.createWebhook({ targetUrl: target.url });
    await createNode(h, family, config as never, [fromWebhook(webhook.id)]);
    const from = google.calls.length;
    const event = await h.createEvent(webhook, { body: JSON.stringify(payload) });
    const [result] = await waitForActionRuns(h, event.id, 1);
    return { run: result, calls: google.calls.slice(from) };
  }
  const summary = (call: GoogleCall) => ({ method: call.method, url: call.url, json: call.json });

  it("appends a row with values:append, one row of the rendered columns", async () => {
    const credentialId = await googleCredential();
    const { run: result, calls } = await run("sheetsAction", {
      credentialId,
      spreadsheetId: "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms",
      sheetName: "Orders",
      columns: ["{{payload.id}}", "{{payload.customer.name}}", "{{response.status}}", "=1+1"],
    });
    expect(result).toMatchObject({ status: "success", statusCode: 200 });
    expect(calls.map(summary)).toEqual([
      {
        method: "POST",
        url: "/v4/spreadsheets/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/values/'Orders'!A1:append?valueInputOption=USER_ENTERED&insertDataOption=INSERT_ROWS",
        json: {
          range: "'Orders'!A1",
          majorDimension: "ROWS",
          values: [["A-1", "Ada", "200", "=1+1"]],
        },
      },
    ]);
    expect(calls[0]?.authorization).toBe(`Bearer ${google.accessToken()}`);
  });

  it("updates a cell with values:update", async () => {
    const credentialId = await googleCredential();
    const { calls } = await run("sheetsAction", {
      credentialId,
      spreadsheetId: "sheet-2",
      sheetName: "Sheet 1",
      operation: "update_cell",
      cell: "B2",
      columns: ["{{payload.customer.name}}"],
    });
    expect(calls.map(summary)).toEqual([
      {
        method: "PUT",
        url: "/v4/spreadsheets/sheet-2/values/'Sheet%201'!B2?valueInputOption=USER_ENTERED",
        json: { range: "'Sheet 1'!B2", majorDimension: "ROWS", values: [["Ada"]] },
      },
    ]);
  });

  it("refreshes an expired token at the token endpoint first and stores the new one sealed", async () => {
    const credentialId = await googleCredential({
      accessToken: "ya29.stale",
      expiresAt: "2020-01-01T00:00:00Z",
    });
    const { run: result, calls } = await run("gmailAction", {
      credentialId,
      operation: "list_labels",
    });
    expect(result?.status).toBe("success");
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ["POST", "/token"],
      ["GET", "/gmail/v1/users/me/labels"],
    ]);
    expect(calls[0]?.contentType).toBe("application/x-www-form-urlencoded");
    expect(calls[0]?.json).toEqual({
      grant_type: "refresh_token",
      refresh_token: GOOGLE_TEST_CLIENT.refreshToken,
      client_id: GOOGLE_TEST_CLIENT.clientId,
      client_secret: GOOGLE_TEST_CLIENT.clientSecret,
    });
    const fresh = google.accessToken();
    expect(calls[1]?.authorization).toBe(`Bearer ${fresh}`);
    const [row] = await h.database.sql`select data from credentials where id = ${credentialId}`;
    expect(row?.data).not.toContain(fresh);
    const opened = JSON.parse(
      ringOf().open(row?.data as Sealed, credentialSealContext(credentialId)),
    );
    expect(opened.accessToken).toBe(fresh);
    expect(Date.parse(opened.expiresAt)).toBeGreaterThan(Date.now());
  });

  it("refreshes once when Google answers 401, then retries the call", async () => {
    const credentialId = await googleCredential({ accessToken: "ya29.revoked" });
    const { run: result, calls } = await run("gmailAction", {
      credentialId,
      operation: "list_labels",
    });
    expect(result?.status).toBe("success");
    expect(calls.map((c) => [c.method, c.url, c.authorization])).toEqual([
      ["GET", "/gmail/v1/users/me/labels", "Bearer ya29.revoked"],
      ["POST", "/token", undefined],
      ["GET", "/gmail/v1/users/me/labels", `Bearer ${google.accessToken()}`],
    ]);
  });

  it("ends the run when the refresh is refused, without a token in the error", async () => {
    const credentialId = await googleCredential({
      accessToken: "ya29.old",
      expiresAt: "2020-01-01T00:00:00Z",
      refreshToken: "1//revoked-refresh",
    });
    const { run: result, calls } = await run("gmailAction", {
      credentialId,
      operation: "list_labels",
    });
    expect(result).toMatchObject({
      status: "failed",
      tries: 1,
      error: "token refresh failed (HTTP 400)",
    });
    expect(calls.map((c) => c.url)).toEqual(["/token"]);
  });

  it("never uses a credential of another owner", async () => {
    const stranger = newId("user");
    await h.database
      .sql`insert into users (id, email, password_hash) values (${stranger}, ${`${stranger}@x.test`}, 'x')`;
    const credentialId = await googleCredential({}, stranger);
    const { run: result, calls } = await run("gmailAction", {
      credentialId,
      operation: "list_labels",
    });
    expect(result).toMatchObject({
      status: "failed",
      tries: 1,
      error: `credential ${credentialId} not found`,
    });
    expect(calls).toEqual([]);
  });

  const rawOf = (call: GoogleCall | undefined, path: string[]) => {
    let value: unknown = call?.json;
    for (const key of path) value = (value as Record<string, unknown>)[key];
    return Buffer.from(String(value), "base64url").toString("utf8");
  };

  it("sends a message with messages.send and a raw RFC 2822 message", async () => {
    const credentialId = await googleCredential();
    const { calls } = await run("gmailAction", {
      credentialId,
      operation: "send",
      operationConfig: {
        to: "{{payload.customer.email}}",
        subject: "Order {{payload.id}} ✓\r\nBcc: x@evil.test",
        body: "Thanks {{payload.customer.name}}",
      },
    });
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ["POST", "/gmail/v1/users/me/messages/send"],
    ]);
    const raw = rawOf(calls[0], ["raw"]);
    expect(raw).toMatch(/^To: ada@example.com\r\n/);
    expect(raw).toContain(
      `Subject: =?UTF-8?B?${Buffer.from("Order A-1 ✓ Bcc: x@evil.test").toString("base64")}?=\r\n`,
    );
    expect(raw).not.toMatch(/^Bcc:/m);
    expect(raw).toContain(Buffer.from("Thanks Ada").toString("base64"));
  });

  it("replies in the original's thread with In-Reply-To and References", async () => {
    const credentialId = await googleCredential();
    const { calls } = await run("gmailAction", {
      credentialId,
      operation: "reply",
      operationConfig: { messageId: "msg-77", body: "Paid." },
    });
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      [
        "GET",
        "/gmail/v1/users/me/messages/msg-77?format=metadata&metadataHeaders=Subject&metadataHeaders=From&metadataHeaders=Message-ID&metadataHeaders=References",
      ],
      ["POST", "/gmail/v1/users/me/messages/send"],
    ]);
    expect(calls[1]?.json).toMatchObject({ threadId: "thread-1" });
    const raw = rawOf(calls[1], ["raw"]);
    expect(raw).toMatch(/^To: Ada <ada@example.com>\r\n/);
    expect(raw).toContain("Subject: Re: Invoice 7\r\n");
    expect(raw).toContain("In-Reply-To: <orig-1@mail.example.com>\r\n");
    expect(raw).toContain("References: <orig-1@mail.example.com>\r\n");
  });

  it("forwards the original attached as message/rfc822", async () => {
    const credentialId = await googleCredential();
    const { calls } = await run("gmailAction", {
      credentialId,
      operation: "forward",
      operationConfig: { messageId: "msg-77", to: "books@example.com", body: "FYI" },
    });
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ["GET", "/gmail/v1/users/me/messages/msg-77?format=raw"],
      ["POST", "/gmail/v1/users/me/messages/send"],
    ]);
    const raw = rawOf(calls[1], ["raw"]);
    expect(raw).toContain("Subject: Fwd: Invoice 7\r\n");
    expect(raw).toContain("Content-Type: message/rfc822");
    expect(raw).toContain("Message-ID: <orig-1@mail.example.com>");
  });

  it.each([
    [
      "create_draft",
      { to: "a@example.com", subject: "s", body: "b" },
      "POST",
      "/gmail/v1/users/me/drafts",
      (json: unknown) =>
        expect(Object.keys((json as { message: object }).message)).toEqual(["raw"]),
    ],
    [
      "send_draft",
      { draftId: "r-{{payload.id}}" },
      "POST",
      "/gmail/v1/users/me/drafts/send",
      (json: unknown) => expect(json).toEqual({ id: "r-A-1" }),
    ],
    [
      "get_message",
      { messageId: "msg-1" },
      "GET",
      "/gmail/v1/users/me/messages/msg-1?format=full",
      (json: unknown) => expect(json).toBeNull(),
    ],
    [
      "list_messages",
      { query: "from:{{payload.customer.email}}", maxResults: 5, labelIds: ["INBOX"] },
      "GET",
      "/gmail/v1/users/me/messages?q=from%3Aada%40example.com&maxResults=5&labelIds=INBOX",
      (json: unknown) => expect(json).toBeNull(),
    ],
    [
      "get_thread",
      { threadId: "thread-1", format: "minimal" },
      "GET",
      "/gmail/v1/users/me/threads/thread-1?format=minimal",
      (json: unknown) => expect(json).toBeNull(),
    ],
    [
      "list_threads",
      { query: "is:unread" },
      "GET",
      "/gmail/v1/users/me/threads?q=is%3Aunread",
      (json: unknown) => expect(json).toBeNull(),
    ],
    [
      "add_labels",
      { messageId: "msg-1", labelIds: ["Label_7"] },
      "POST",
      "/gmail/v1/users/me/messages/msg-1/modify",
      (json: unknown) => expect(json).toEqual({ addLabelIds: ["Label_7"], removeLabelIds: [] }),
    ],
    [
      "remove_labels",
      { messageId: "msg-1", labelIds: ["Label_7"] },
      "POST",
      "/gmail/v1/users/me/messages/msg-1/modify",
      (json: unknown) => expect(json).toEqual({ addLabelIds: [], removeLabelIds: ["Label_7"] }),
    ],
    [
      "list_labels",
      {},
      "GET",
      "/gmail/v1/users/me/labels",
      (json: unknown) => expect(json).toBeNull(),
    ],
    [
      "create_label",
      { name: "Orders {{payload.id}}" },
      "POST",
      "/gmail/v1/users/me/labels",
      (json: unknown) =>
        expect(json).toEqual({
          name: "Orders A-1",
          labelListVisibility: "labelShow",
          messageListVisibility: "show",
        }),
    ],
    [
      "mark_read",
      { messageId: "msg-1" },
      "POST",
      "/gmail/v1/users/me/messages/msg-1/modify",
      (json: unknown) => expect(json).toEqual({ addLabelIds: [], removeLabelIds: ["UNREAD"] }),
    ],
    [
      "mark_unread",
      { messageId: "msg-1" },
      "POST",
      "/gmail/v1/users/me/messages/msg-1/modify",
      (json: unknown) => expect(json).toEqual({ addLabelIds: ["UNREAD"], removeLabelIds: [] }),
    ],
    [
      "archive",
      { messageId: "msg-1" },
      "POST",
      "/gmail/v1/users/me/messages/msg-1/modify",
      (json: unknown) => expect(json).toEqual({ addLabelIds: [], removeLabelIds: ["INBOX"] }),
    ],
    [
      "trash",
      { messageId: "msg-1" },
      "POST",
      "/gmail/v1/users/me/messages/msg-1/trash",
      (json: unknown) => expect(json).toBeNull(),
    ],
  ])(
    "%s calls Gmail as its reference documents",
    async (operation, operationConfig, method, url, checkBody) => {
      const credentialId = await googleCredential();
      const { run: result, calls } = await run("gmailAction", {
        credentialId,
        operation,
        operationConfig,
      });
      expect(result?.status).toBe("success");
      expect(calls.map((c) => [c.method, c.url])).toEqual([[method, url]]);
      checkBody(calls[0]?.json);
    },
  );

  it("refuses a rendered id that could change the request path", async () => {
    const credentialId = await googleCredential();
    const { run: result, calls } = await run(
      "gmailAction",
      { credentialId, operation: "trash", operationConfig: { messageId: "{{payload.id}}" } },
      { id: "../../labels" },
    );
    expect(result).toMatchObject({
      status: "failed",
      tries: 1,
      error: "operationConfig.messageId: not a Gmail id",
    });
    expect(calls).toEqual([]);
  });
});
