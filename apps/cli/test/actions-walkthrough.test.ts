import {
  GOOGLE_TEST_CLIENT,
  type GoogleStandIn,
  type LocalSmtpServer,
  type MongoWireServer,
  type Receiver,
  startGoogleStandIn,
  startLocalSmtpServer,
  startMongoWireServer,
  startReceiver,
  waitUntil,
} from "@hookflow/testing";
import { type HookflowUnderTest, startHookflow } from "./cli-process.js";

const OAUTH_SECRETS = {
  ...GOOGLE_TEST_CLIENT,
  accessToken: "ya29.walkthrough-expired",
  expiresAt: "2020-01-01T00:00:00Z",
};

/**
 * A new user's walk-through of post-delivery actions against `hookflow start`: credentials and
 * one action of each family created through the API, an event whose delivery needs a retry,
 * then each action exactly once, against real local services.
 */
describe("post-delivery actions, end to end", () => {
  let hookflow: HookflowUnderTest;
  let receiver: Receiver;
  let smtp: LocalSmtpServer;
  let google: GoogleStandIn;
  let mongo: MongoWireServer;

  beforeAll(async () => {
    receiver = await startReceiver();
    smtp = await startLocalSmtpServer({ user: "relay", pass: "relay-pass" });
    google = await startGoogleStandIn();
    mongo = await startMongoWireServer();
    hookflow = await startHookflow({
      SMTP_URL: smtp.urlWith("relay", "relay-pass"),
      GOOGLE_API_BASE_URL: google.url,
      GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
      HOOKFLOW_DELAY_SCALE: "0.01",
    });
  }, 60_000);

  afterAll(async () => {
    await hookflow?.stop();
    await receiver?.close();
    await smtp?.close();
    await google?.close();
    await mongo?.close();
  });

  it("fires each action once after a delivery that needed a retry", async () => {
    const { base } = hookflow;
    const signup = await fetch(`${base}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        email: "actions@example.com",
        password: "correct-horse-9",
        name: "A",
      }),
    });
    const { token } = (await signup.json()) as { token: string };
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/api${path}`, {
        method,
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as Record<string, unknown> & { id: string };
      if (res.status >= 300)
        throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    let targetCalls = 0;
    receiver.respondWith((request) =>
      request.path === "/target" && ++targetCalls === 1
        ? { status: 503, body: "warming up" }
        : { status: 200, body: '{"ref":"R-9"}' },
    );
    const webhook = await api("POST", "/webhooks", {
      name: "orders",
      targetUrl: `${receiver.url}/target`,
      retryDelaySeconds: 10,
    });
    const inputNodes = [{ nodeType: "webhook", nodeId: webhook.id }];
    const oauth = await api("POST", "/credentials", {
      name: "gmail",
      type: "google_oauth",
      data: OAUTH_SECRETS,
    });
    const db = await api("POST", "/credentials", {
      name: "db",
      type: "mongodb",
      data: { connectionUri: mongo.uri },
    });
    await api("POST", "/http-actions", {
      name: "crm",
      inputNodes,
      url: `${receiver.url}/crm/{{payload.id}}`,
      body: '{"ref":"{{response.body.ref}}"}',
    });
    await api("POST", "/http-actions", {
      name: "on failure",
      inputNodes,
      url: `${receiver.url}/failure`,
      triggerOn: "failure",
    });
    await api("POST", "/notification-actions", {
      name: "slack",
      inputNodes,
      platform: "slack",
      webhookUrl: `${receiver.url}/slack`,
      triggerOn: "always",
    });
    await api("POST", "/email-actions", {
      name: "mail",
      inputNodes,
      to: "{{payload.email}}",
      subject: "Order {{payload.id}}",
      body: "<p>Thanks</p>",
    });
    await api("POST", "/sheets-actions", {
      name: "sheet",
      inputNodes,
      credentialId: oauth.id,
      spreadsheetId: "sheet-1",
      columns: ["{{payload.id}}"],
    });
    await api("POST", "/gmail-actions", {
      name: "gmail",
      inputNodes,
      credentialId: oauth.id,
      operation: "add_labels",
      operationConfig: { messageId: "msg-1", labelIds: ["Label_7"] },
    });
    await api("POST", "/mongo-actions", {
      name: "mongo",
      inputNodes,
      credentialId: db.id,
      database: "shop",
      collection: "orders",
      document: '{"id":"{{payload.id}}"}',
    });

    const accepted = await fetch(`${base}/api/in/${String(webhook.ingressToken)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "A-1", email: "ada@example.com" }),
    });
    const { eventId } = (await accepted.json()) as { eventId: string };
    const detail = await waitUntil(
      async () => {
        const event = await api("GET", `/events/${eventId}`);
        const runs = event.actionRuns as Array<{ status: string; family: string }>;
        return runs.length === 6 && runs.every((run) => run.status === "success")
          ? event
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, describe: () => hookflow.cli.output().slice(-2000) },
    );
    expect(detail.status).toBe("delivered");
    expect(detail.attemptCount).toBe(2);
    expect(
      (detail.actionRuns as Array<{ family: string }>).map((run) => run.family).sort(),
    ).toEqual([
      "emailAction",
      "gmailAction",
      "httpAction",
      "mongoAction",
      "notificationAction",
      "sheetsAction",
    ]);
    const paths = receiver.requests.map((request) => request.path).sort();
    expect(paths).toEqual(["/crm/A-1", "/slack", "/target", "/target"]);
    expect(
      JSON.parse(receiver.requests.find((r) => r.path === "/crm/A-1")?.body.toString() ?? ""),
    ).toEqual({ ref: "R-9" });
    expect(smtp.received.map((mail) => mail.to)).toEqual([["ada@example.com"]]);
    // Both Google actions may refresh the expired token, each on its own: one or two refreshes.
    const tokenCalls = google.calls.filter((call) => call.url === "/token").length;
    expect(tokenCalls === 1 || tokenCalls === 2).toBe(true);
    expect(
      google.calls
        .filter((call) => call.url !== "/token")
        .map((call) => `${call.method} ${call.url.split("?")[0]}`)
        .sort(),
    ).toEqual([
      "POST /gmail/v1/users/me/messages/msg-1/modify",
      "POST /v4/spreadsheets/sheet-1/values/'Sheet1'!A1:append",
    ]);
    expect(mongo.writes().map((write) => write.name)).toEqual(["insert"]);
    const steps = (await api("GET", `/events/${eventId}/steps`)) as unknown as Array<{
      nodeType: string;
      status: string;
    }>;
    expect(
      steps.filter((step) => step.nodeType.endsWith("Action") && step.status === "success"),
    ).toHaveLength(6);
    const [stored] = await hookflow.database
      .sql`select data from credentials where id = ${oauth.id}`;
    const everywhere = `${hookflow.cli.output()}\n${JSON.stringify(stored)}`;
    for (const secret of [
      OAUTH_SECRETS.clientSecret,
      OAUTH_SECRETS.refreshToken,
      OAUTH_SECRETS.accessToken,
      google.accessToken(),
    ]) {
      expect({ secret, found: everywhere.includes(secret) }).toEqual({ secret, found: false });
    }
  }, 60_000);
});
