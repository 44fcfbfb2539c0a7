import { fileURLToPath } from "node:url";
import { loadConfig } from "@hookflow/config";
import { STREAM_TOKEN_TTL_MS, verifyStreamToken } from "@hookflow/domain";
import { createLogger, createMetrics } from "@hookflow/observability";
import { createStepPublisher, redisKeys } from "@hookflow/queue";
import {
  type ChildApp,
  createTestDatabase,
  createTestRedisPrefix,
  type Receiver,
  startChildApp,
  startReceiver,
  TEST_ENCRYPTION_KEY,
  type TestDatabase,
  type TestRedisPrefix,
  waitUntil,
} from "@hookflow/testing";
import { Redis } from "ioredis";
import { createIngressApp } from "../src/app.js";
import { buildIngressServices } from "../src/services.js";
import { insertOwner, insertWebhook } from "./harness.js";

const CLI = fileURLToPath(new URL("../../cli/dist/main.js", import.meta.url));
const SECRET = "sync-test-secret-sync-test-secret-sync-1";
const SHORT_WAIT_MS = 300;

/** One ingress replica in this process. */
function startReplica(env: Record<string, string>, syncWaitMs?: number) {
  const services = buildIngressServices({
    config: loadConfig({ NODE_ENV: "test", HOOKFLOW_SECRET: SECRET, LOG_LEVEL: "silent", ...env }),
    logger: createLogger({ level: "silent", role: "ingress" }),
    metrics: createMetrics({ role: "ingress", defaultMetrics: false }),
    ...(syncWaitMs === undefined ? {} : { syncWaitMs }),
  });
  const app = createIngressApp(services);
  const post = async (token: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await app.request(`/api/in/${token}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { services, post };
}

describe("sync response mode (ingress in process, worker as its own process)", () => {
  let database: TestDatabase;
  let prefix: TestRedisPrefix;
  let receiver: Receiver;
  let worker: ChildApp;
  let replicaA: ReturnType<typeof startReplica>;
  let replicaB: ReturnType<typeof startReplica>;
  let shortWait: ReturnType<typeof startReplica>;
  let redis: Redis;
  let ownerId: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    prefix = createTestRedisPrefix();
    receiver = await startReceiver();
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: prefix.url,
      HOOKFLOW_REDIS_PREFIX: prefix.prefix,
      HOOKFLOW_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    };
    worker = await startChildApp({
      entry: CLI,
      args: ["start", "--role", "worker"],
      env: { ...env, HOOKFLOW_SECRET: SECRET, HOOKFLOW_DELAY_SCALE: "0.001" },
      name: "worker",
    });
    replicaA = startReplica(env);
    replicaB = startReplica(env);
    shortWait = startReplica(env, SHORT_WAIT_MS);
    await Promise.all([replicaA, replicaB, shortWait].map((r) => r.services.subscribed()));
    redis = new Redis(prefix.url);
    ownerId = await insertOwner(database.db);
  });

  afterAll(async () => {
    await worker?.terminate();
    for (const replica of [replicaA, replicaB, shortWait]) await replica?.services.close();
    redis?.disconnect();
    await receiver?.close();
    await database?.destroy();
    await prefix?.destroy();
  });

  beforeEach(() => {
    receiver.respondWith(() => ({ status: 200, body: '{"ok":true}' }));
  });

  const syncWebhook = (values: Record<string, unknown> = {}) =>
    insertWebhook(database.db, ownerId, {
      targetUrl: `${receiver.url}/hook`,
      responseMode: "sync",
      ...values,
    });
  const statusOf = async (eventId: string) =>
    (await database.sql`select status from events where id = ${eventId}`)[0]?.status as string;

  it("waits for the delivery and answers 200 with syncStatus 200, the steps and the response", async () => {
    const hook = await syncWebhook();
    const res = await replicaA.post(hook.token, { order: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      syncStatus: 200,
      steps: [
        expect.objectContaining({ nodeType: "delivery", nodeId: hook.id, status: "running" }),
        expect.objectContaining({ status: "success", statusCode: 200 }),
      ],
      response: '{"ok":true}',
      streamToken: expect.any(String),
    });
    const { eventId, streamToken } = res.body;
    expect(verifyStreamToken(SECRET, streamToken, eventId, Date.now())).toEqual({ ok: true });
    expect(await statusOf(eventId)).toBe("delivered");
    expect(receiver.requests.some((r) => r.headers["x-hookflow-event-id"] === eventId)).toBe(true);
  });

  it("answers syncStatus 502 with the target's response when delivery fails for good", async () => {
    receiver.respondWith(() => ({ status: 500, body: "target exploded" }));
    const hook = await syncWebhook({ maxRetries: 0 });
    const res = await replicaA.post(hook.token, { order: 2 });
    expect(res.status).toBe(200);
    expect(res.body.syncStatus).toBe(502);
    expect(res.body.response).toBe("target exploded");
    expect(res.body.steps.map((s: any) => [s.status, s.statusCode])).toEqual([
      ["running", undefined],
      ["error", 500],
    ]);
    expect(await statusOf(res.body.eventId)).toBe("failed");
  });

  it("answers syncStatus 408 when the wait runs out, and the pipeline still finishes", async () => {
    receiver.respondWith(() => ({ status: 200, body: "late", delayMs: 1500 }));
    const hook = await syncWebhook();
    const res = await shortWait.post(hook.token, { order: 3 });
    expect(res.status).toBe(200);
    expect(res.body.syncStatus).toBe(408);
    expect(res.body.response).toBeUndefined();
    expect(Array.isArray(res.body.steps)).toBe(true);
    await waitUntil(async () =>
      (await statusOf(res.body.eventId)) === "delivered" ? true : undefined,
    );
  });

  it("answers a 408 with a stream token valid for 120 s from the answer, to follow the event", async () => {
    receiver.respondWith(() => ({ status: 200, body: "late", delayMs: 1500 }));
    const hook = await syncWebhook();
    const sentAt = Date.now();
    const res = await shortWait.post(hook.token, { order: 4 });
    expect(res.body.syncStatus).toBe(408);
    const { eventId, streamToken } = res.body;
    // The answer came SHORT_WAIT_MS or more after acceptance; the token still has (nearly) its
    // whole lifetime. A token issued at acceptance has run out by then.
    const lastMoment = sentAt + SHORT_WAIT_MS + STREAM_TOKEN_TTL_MS - 1;
    expect(verifyStreamToken(SECRET, streamToken, eventId, lastMoment)).toEqual({ ok: true });
    expect(
      verifyStreamToken(SECRET, streamToken, eventId, Date.now() + STREAM_TOKEN_TTL_MS + 1),
    ).toEqual({ ok: false, reason: "expired" });
    await waitUntil(async () => ((await statusOf(eventId)) === "delivered" ? true : undefined));
  });

  it("answers syncStatus 200 without a response when the payload filters drop the event", async () => {
    const hook = await syncWebhook({
      payloadFilters: [{ field: "kind", operator: "eq", value: "wanted" }],
    });
    const res = await replicaA.post(hook.token, { kind: "other" });
    expect(res.body).toEqual({
      eventId: expect.any(String),
      syncStatus: 200,
      steps: [
        expect.objectContaining({ nodeType: "webhook", status: "running" }),
        expect.objectContaining({ nodeType: "webhook", status: "blocked" }),
      ],
      streamToken: expect.any(String),
    });
    expect(await statusOf(res.body.eventId)).toBe("filtered");
  });

  it("waits the same way on any replica", async () => {
    const hook = await syncWebhook();
    const [a, b] = await Promise.all([
      replicaA.post(hook.token, { replica: "a" }),
      replicaB.post(hook.token, { replica: "b" }),
    ]);
    expect([a.body.syncStatus, b.body.syncStatus]).toEqual([200, 200]);
  });

  it("holds one steps subscription per ingress process however many requests wait", async () => {
    const hook = await syncWebhook();
    const [results] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, (_, n) => replicaA.post(hook.token, { n }))),
      replicaB.post(hook.token, { replica: "b" }),
      shortWait.post(hook.token, { replica: "short" }),
    ]);
    expect(results.map((r) => r.body.syncStatus)).toEqual(Array(20).fill(200));
    const [, subscribers] = (await redis.pubsub(
      "NUMSUB",
      redisKeys(prefix.prefix).stepsChannel,
    )) as [string, number];
    // Replica A, replica B and the short-wait replica, one subscription each.
    expect(subscribers).toBe(3);
    expect(replicaA.services.sync.waiting()).toBe(0);
  });

  it("answers a duplicate at once with the original event id, as in response mode none", async () => {
    const hook = await syncWebhook({ dedupEnabled: true });
    const first = await replicaA.post(hook.token, { n: 1 }, { "idempotency-key": "k-1" });
    expect(first.body.syncStatus).toBe(200);
    const again = await replicaA.post(hook.token, { n: 1 }, { "idempotency-key": "k-1" });
    expect(again).toEqual({
      status: 200,
      body: {
        eventId: first.body.eventId,
        deduplicated: true,
        originalEventId: first.body.eventId,
      },
    });
  });

  it("keeps answering 202 with a stream token for response mode none", async () => {
    const hook = await insertWebhook(database.db, ownerId, { targetUrl: receiver.url });
    const res = await replicaA.post(hook.token, { n: 1 });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(["eventId", "streamToken"]);
  });

  it("answers at once with syncStatus 202 when the webhook is inactive (the event is held)", async () => {
    const hook = await syncWebhook({ isActive: false });
    const res = await replicaA.post(hook.token, { held: true });
    expect(res.body).toEqual({
      eventId: expect.any(String),
      syncStatus: 202,
      steps: [],
      streamToken: expect.any(String),
    });
    expect(await statusOf(res.body.eventId)).toBe("pending");
  });

  describe("outcomes the node graph produces (its nodes publish the same messages)", () => {
    // These cases stand in for the schema validator and the parking nodes by publishing the
    // message such a node publishes, while the worker's own delivery waits on a slow receiver.
    beforeEach(() => {
      receiver.respondWith(() => ({ status: 200, delayMs: 2000 }));
    });
    const publisher = () => createStepPublisher({ redis, keys: redisKeys(prefix.prefix) });

    async function eventIdOf(webhookId: string): Promise<string> {
      return waitUntil(async () => {
        const rows = await database.sql`select id from events where webhook_id = ${webhookId}`;
        return rows[0]?.id as string | undefined;
      });
    }

    it("answers syncStatus 422 when the pipeline ends with validation failed", async () => {
      const hook = await syncWebhook();
      const pending = replicaA.post(hook.token, { amount: "x" });
      const eventId = await eventIdOf(hook.id);
      await publisher().publish(eventId, {
        kind: "step",
        step: {
          eventId,
          nodeType: "schemaValidator",
          nodeId: "sv_1",
          status: "error",
          error: "amount: expected number",
          at: new Date().toISOString(),
        },
      });
      await publisher().publish(eventId, {
        kind: "done",
        done: {
          eventId,
          status: 422,
          body: { deliveryStatus: "failed", statusCode: 0, latencyMs: 0 },
        },
      });
      const res = await pending;
      expect(res.body).toEqual({
        eventId,
        syncStatus: 422,
        steps: expect.arrayContaining([
          expect.objectContaining({ nodeType: "schemaValidator", status: "error" }),
        ]),
        streamToken: expect.any(String),
      });
    });

    it("answers at once with the flag when the event parks at an approval", async () => {
      const hook = await syncWebhook();
      const pending = replicaA.post(hook.token, { amount: 5 });
      const eventId = await eventIdOf(hook.id);
      await publisher().publish(eventId, {
        kind: "parked",
        parked: { eventId, awaitingApproval: true },
      });
      const res = await pending;
      expect(res.body).toEqual({
        eventId,
        syncStatus: 202,
        steps: expect.any(Array),
        awaitingApproval: true,
        streamToken: expect.any(String),
      });
    });
  });

  it("answers waiting requests with 408 when the ingress shuts down", async () => {
    const local = startReplica(env);
    await local.services.subscribed();
    receiver.respondWith(() => ({ status: 200, delayMs: 2000 }));
    const hook = await syncWebhook();
    const pending = local.post(hook.token, {});
    await waitUntil(() => (local.services.sync.waiting() === 1 ? true : undefined));
    await local.services.close();
    const res = await pending;
    expect(res.body.syncStatus).toBe(408);
  });
});
