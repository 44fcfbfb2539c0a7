import { createLogger } from "@hookflow/observability";
import {
  GOOGLE_TEST_CLIENT,
  type GoogleStandIn,
  type Receiver,
  startGoogleStandIn,
  startReceiver,
} from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, fromWebhook } from "../pipeline/pipeline-harness.js";
import { insertCredential, waitForActionRuns } from "./actions-harness.js";

const SECRETS = {
  bearer: "bearer-secret-4f9a",
  basicPassword: "basic-secret-77c1",
  mongoPassword: "mongo-secret-0b2e",
};

describe("credentials used by actions", () => {
  let h: WorkerHarness;
  let receiver: Receiver;
  let google: GoogleStandIn;
  const lines: string[] = [];
  beforeAll(async () => {
    receiver = await startReceiver();
    google = await startGoogleStandIn();
    const logger = createLogger({
      level: "trace",
      role: "worker",
      destination: { write: (line: string) => lines.push(line) },
    });
    h = await startWorkerHarness(
      {
        GOOGLE_API_BASE_URL: google.url,
        GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
        LOG_LEVEL: "trace",
      },
      {},
      logger,
    );
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
    await google.close();
  });

  it("reach their service, and never a log line, a run record or a step", async () => {
    let calls = 0;
    receiver.respondWith((request) =>
      request.path === "/target" || ++calls > 1 ? { status: 200 } : { status: 503, body: "busy" },
    );
    const bearer = await insertCredential(h, "bearer", { token: SECRETS.bearer });
    const basic = await insertCredential(h, "basic", {
      username: "svc",
      password: SECRETS.basicPassword,
    });
    const oauth = await insertCredential(h, "google_oauth", {
      ...GOOGLE_TEST_CLIENT,
      accessToken: "ya29.expired-token",
      expiresAt: "2020-01-01T00:00:00Z",
    });
    const mongo = await insertCredential(h, "mongodb", {
      connectionUri: `mongodb://app:${SECRETS.mongoPassword}@127.0.0.1:1/shop?serverSelectionTimeoutMS=100&connectTimeoutMS=100`,
    });
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/target` });
    const inputs = [fromWebhook(webhook.id)];
    await createNode(
      h,
      "httpAction",
      { url: `${receiver.url}/bearer`, credentialId: bearer },
      inputs,
    );
    await createNode(
      h,
      "httpAction",
      { url: `${receiver.url}/basic`, credentialId: basic },
      inputs,
    );
    await createNode(h, "gmailAction", { credentialId: oauth, operation: "list_labels" }, inputs);
    await createNode(
      h,
      "mongoAction",
      { credentialId: mongo, database: "shop", collection: "o", document: '{"a":1}' },
      inputs,
    );
    const event = await h.createEvent(webhook);
    const runs = await waitForActionRuns(h, event.id, 4);

    const byPath = (path: string) => receiver.requests.filter((r) => r.path === path);
    expect(byPath("/bearer").at(-1)?.headers.authorization).toBe(`Bearer ${SECRETS.bearer}`);
    expect(byPath("/basic").at(-1)?.headers.authorization).toBe(
      `Basic ${Buffer.from(`svc:${SECRETS.basicPassword}`).toString("base64")}`,
    );
    expect(runs.map((run) => run.status).sort()).toEqual([
      "failed",
      "success",
      "success",
      "success",
    ]);
    const fresh = google.accessToken();
    expect(fresh).not.toBe("ya29.expired-token");

    await h.services.steps.flush();
    const everything = [
      lines.join(""),
      JSON.stringify(runs),
      JSON.stringify(
        await h.database.sql`select steps from event_step_batches where event_id = ${event.id}`,
      ),
    ].join("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [
      ...Object.values(SECRETS),
      fresh,
      "ya29.expired-token",
      GOOGLE_TEST_CLIENT.clientSecret,
      GOOGLE_TEST_CLIENT.refreshToken,
    ]) {
      expect({ secret, found: everything.includes(secret) }).toEqual({ secret, found: false });
    }
  });
});
