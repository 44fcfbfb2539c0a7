import {
  type ChildApp,
  createTestDatabase,
  createTestRedisPrefix,
  type TestDatabase,
  type TestRedisPrefix,
  waitUntil,
} from "@hookflow/testing";
import {
  appEnv,
  attemptRows,
  createApps,
  deliveryLogs,
  eventRows,
  ingest,
  isDelivered,
  openQueues,
  seedOwner,
  seedWebhook,
  waitForEvents,
} from "./fault-kit.js";
import { type FaultReceiver, startFaultReceiver } from "./fault-receiver.js";

const TEST_TIMEOUT_MS = 60_000;

let database: TestDatabase;
let redis: TestRedisPrefix;
let receiver: FaultReceiver;
let queues: ReturnType<typeof openQueues>;
let ingress: ChildApp;
let ownerId: string;
const apps = createApps();
const workers = createApps();
let env: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  redis = createTestRedisPrefix();
  receiver = await startFaultReceiver();
  queues = openQueues(redis.url, redis.prefix);
  env = appEnv({ databaseUrl: database.url, redisUrl: redis.url, prefix: redis.prefix });
  ownerId = await seedOwner(database.db);
  ingress = await apps.start("ingress", env);
}, TEST_TIMEOUT_MS);

afterEach(async () => {
  await workers.killAll();
  receiver.release();
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await workers.killAll();
  await apps.killAll();
  await queues?.close();
  await receiver?.close();
  await redis?.destroy();
  await database?.destroy();
}, TEST_TIMEOUT_MS);

describe("two worker processes on one queue", () => {
  it(
    "deliver each of many events exactly once between them",
    async () => {
      const webhook = await seedWebhook(database.db, ownerId, {
        targetUrl: `${receiver.url}/shared`,
      });
      const workerA = await workers.start("worker", env, "worker-a");
      const workerB = await workers.start("worker", env, "worker-b");
      // A little latency per request keeps both workers busy, so both take a share.
      receiver.reply(() => ({ status: 200, delayMs: 20 }));

      const ids = await Promise.all(
        Array.from({ length: 60 }, (_, n) => ingest(ingress, webhook.ingressToken, { n })),
      );
      const rows = await waitForEvents(database.db, ids, isDelivered);

      expect(ids.map((id) => receiver.delivered(id))).toEqual(ids.map(() => 1));
      expect(receiver.arrivals.filter((arrival) => ids.includes(arrival.eventId))).toHaveLength(60);
      expect(rows.map((row) => row.attemptCount)).toEqual(ids.map(() => 1));
      // Each event was delivered by one worker; both workers took a share. (A sweep racing a
      // job's completion may add a no-op "settled" run, never a second delivery.)
      const deliveredBy = (app: ChildApp) =>
        deliveryLogs(app).filter(
          (line) => line.outcome === "delivered" && ids.includes(String(line.eventId)),
        );
      await waitUntil(() =>
        deliveredBy(workerA).length + deliveredBy(workerB).length >= 60 ? true : undefined,
      );
      const byA = deliveredBy(workerA);
      const byB = deliveredBy(workerB);
      expect(new Set([...byA, ...byB].map((line) => line.eventId)).size).toBe(60);
      expect(byA.length + byB.length).toBe(60);
      expect(byA.length).toBeGreaterThan(0);
      expect(byB.length).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("SIGTERM to a worker with a delivery in flight", () => {
  it(
    "lets the delivery finish and be recorded, then exits 0 with no job left active",
    async () => {
      const webhook = await seedWebhook(database.db, ownerId, {
        targetUrl: `${receiver.url}/term`,
      });
      const worker = await workers.start("worker", env, "worker-term");
      let signalled = false;
      receiver.reply((arrival) => {
        if (arrival.path !== "/term" || signalled) return { status: 200 };
        signalled = true;
        worker.signal("SIGTERM");
        return { hold: true };
      });

      const eventId = await ingest(ingress, webhook.ingressToken, { order: "graceful" });
      // The worker has begun shutting down while its request is still held open.
      await worker.waitForLog((line) => line.msg === "shutting down" && line.signal === "SIGTERM");
      expect(worker.running()).toBe(true);
      const [pending] = await eventRows(database.db, [eventId]);
      expect(pending?.status).toBe("pending");

      receiver.release(200);
      expect(await worker.exited).toEqual({ code: 0, signal: null });

      const [row] = await eventRows(database.db, [eventId]);
      expect(row?.status).toBe("delivered");
      const attempts = await attemptRows(database.db, eventId);
      expect(attempts.map(({ success, statusCode }) => ({ success, statusCode }))).toEqual([
        { success: true, statusCode: 200 },
      ]);
      expect(deliveryLogs(worker, eventId).map((line) => line.outcome)).toEqual(["delivered"]);
      expect(worker.output()).toMatch(/"msg":"stopped"/);
      expect(await queues.activeCount()).toBe(0);
      expect(await queues.lane(webhook.priority).getJob(eventId)).toBeUndefined();
    },
    TEST_TIMEOUT_MS,
  );
});
