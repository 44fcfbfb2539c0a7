import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import {
  type ChildApp,
  createTestDatabase,
  createTestRedisPrefix,
  insertWebhookFixture,
  openSse,
  type Receiver,
  startChildApp,
  startReceiver,
  TEST_ENCRYPTION_KEY,
  type TestDatabase,
  type TestRedisPrefix,
} from "@hookflow/testing";

const CLI = fileURLToPath(new URL("../../cli/dist/main.js", import.meta.url));
const SECRET = "processes-test-secret-processes-test-1";

async function insertWebhook(
  database: TestDatabase,
  values: { targetUrl: string; responseMode?: "none" | "sync" },
): Promise<{ id: string; token: string }> {
  const ownerId = `usr_${randomBytes(8).toString("hex")}`;
  await database.sql`insert into users (id, email, password_hash)
    values (${ownerId}, ${`${ownerId}@example.test`}, 'unusable')`;
  const { row, secrets } = await insertWebhookFixture(database.db, {
    ownerId,
    name: "processes",
    targetUrl: values.targetUrl,
    responseMode: values.responseMode ?? "none",
  });
  return { id: row.id, token: secrets.ingressToken };
}

async function post(baseUrl: string, token: string, body: unknown) {
  const res = await fetch(`${baseUrl}/api/in/${token}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Opens the event's stream and reads it to its end. */
async function readStream(streamBase: string, eventId: string, streamToken: string) {
  const sse = await openSse(
    `${streamBase}/api/events/${eventId}/stream?token=${encodeURIComponent(streamToken)}`,
  );
  expect(sse.status).toBe(200);
  await sse.ended;
  return sse.messages.map((m) => ({ event: m.event, id: m.id, data: JSON.parse(m.data) }));
}

describe("ingress, stream and worker as separate processes", () => {
  let database: TestDatabase;
  let prefix: TestRedisPrefix;
  let receiver: Receiver;
  const apps: ChildApp[] = [];
  let ingress: ChildApp;
  let stream: ChildApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    prefix = createTestRedisPrefix();
    receiver = await startReceiver();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: prefix.url,
      HOOKFLOW_REDIS_PREFIX: prefix.prefix,
      HOOKFLOW_SECRET: SECRET,
      HOOKFLOW_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    };
    [ingress, stream] = (await Promise.all(
      ["ingress", "stream", "worker"].map(async (role) => {
        const app = await startChildApp({
          entry: CLI,
          args: ["start", "--role", role],
          env,
          name: role,
        });
        apps.push(app);
        return app;
      }),
    )) as [ChildApp, ChildApp, ChildApp];
  });

  afterAll(async () => {
    for (const app of apps) await app.terminate();
    await receiver?.close();
    await database?.destroy();
    await prefix?.destroy();
  });

  it("streams every step of a delivered event and done with the token the ingress returned", async () => {
    const hook = await insertWebhook(database, { targetUrl: `${receiver.url}/hook` });
    const accepted = await post(ingress.url, hook.token, { order: 42 });
    expect(accepted.status).toBe(202);
    const { eventId, streamToken } = accepted.body;
    const messages = await readStream(stream.url, eventId, streamToken);
    expect(messages).toEqual([
      {
        event: "step",
        id: "1",
        data: expect.objectContaining({ eventId, nodeType: "delivery", status: "running" }),
      },
      {
        event: "step",
        id: "2",
        data: expect.objectContaining({ nodeId: hook.id, status: "success", statusCode: 200 }),
      },
      {
        event: "done",
        id: "3",
        data: {
          status: 200,
          body: { deliveryStatus: "delivered", statusCode: 200, latencyMs: expect.any(Number) },
        },
      },
    ]);
    expect(receiver.requests.some((r) => r.headers["x-hookflow-event-id"] === eventId)).toBe(true);
  });

  it("answers a sync-mode webhook with the pipeline's result from the ingress process", async () => {
    const hook = await insertWebhook(database, {
      targetUrl: `${receiver.url}/hook`,
      responseMode: "sync",
    });
    const res = await post(ingress.url, hook.token, { order: 43 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ syncStatus: 200, response: '{"ok":true}' });
    expect(res.body.steps.map((s: any) => s.status)).toEqual(["running", "success"]);
  });
});

describe("hookflow start (all roles behind one port)", () => {
  let database: TestDatabase;
  let prefix: TestRedisPrefix;
  let receiver: Receiver;
  let app: ChildApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    prefix = createTestRedisPrefix();
    receiver = await startReceiver();
    app = await startChildApp({
      entry: CLI,
      args: ["start"],
      env: {
        DATABASE_URL: database.url,
        REDIS_URL: prefix.url,
        HOOKFLOW_REDIS_PREFIX: prefix.prefix,
        HOOKFLOW_SECRET: SECRET,
        HOOKFLOW_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      },
      name: "all-in-one",
    });
  });

  afterAll(async () => {
    await app?.terminate();
    await receiver?.close();
    await database?.destroy();
    await prefix?.destroy();
  });

  it("routes the stream path to the stream app and relays the delivery to the end", async () => {
    const hook = await insertWebhook(database, { targetUrl: `${receiver.url}/hook` });
    const accepted = await post(app.url, hook.token, { order: 44 });
    expect(accepted.status).toBe(202);
    const messages = await readStream(app.url, accepted.body.eventId, accepted.body.streamToken);
    expect(messages.map((m) => m.event)).toEqual(["step", "step", "done"]);
    expect(messages.at(-1)?.data.body.deliveryStatus).toBe("delivered");
  });

  it("ends the stream with done cancelled when the event is cancelled through the api", async () => {
    const signup = await fetch(`${app.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "stream@example.com", password: "correct-horse-1", name: "S" }),
    });
    const { token } = (await signup.json()) as { token: string };
    const auth = { "content-type": "application/json", authorization: `Bearer ${token}` };
    const created = await fetch(`${app.url}/api/webhooks`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "held", targetUrl: `${receiver.url}/hook`, isActive: false }),
    });
    expect(created.status).toBe(201);
    const webhook = (await created.json()) as { ingressToken: string; isActive: boolean };
    expect(webhook.isActive).toBe(false);
    const accepted = await post(app.url, webhook.ingressToken, { order: 45 });
    const { eventId, streamToken } = accepted.body;

    const sse = await openSse(
      `${app.url}/api/events/${eventId}/stream?token=${encodeURIComponent(streamToken)}`,
    );
    const cancelled = await fetch(`${app.url}/api/events/${eventId}/cancel`, {
      method: "POST",
      headers: auth,
    });
    expect(cancelled.status).toBe(204);
    const done = await sse.next();
    expect([done.event, JSON.parse(done.data)]).toEqual([
      "done",
      { status: 200, body: { deliveryStatus: "cancelled", statusCode: 0, latencyMs: 0 } },
    ]);
    await sse.ended;
  });
});
