import {
  createTestDatabase,
  type RedisServer,
  startRedisServer,
  type TestDatabase,
  waitUntil,
} from "@hookflow/testing";
import {
  appEnv,
  attemptRows,
  createApps,
  eventRows,
  ingest,
  isDelivered,
  openQueues,
  post,
  seedOwner,
  seedWebhook,
  waitForEvents,
} from "./fault-kit.js";
import { type FaultReceiver, startFaultReceiver } from "./fault-receiver.js";

const TEST_TIMEOUT_MS = 90_000;
const PREFIX = "hf_fault_restart";

let database: TestDatabase;
let redisServer: RedisServer;
let receiver: FaultReceiver;
let ownerId: string;
const apps = createApps();
let env: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  redisServer = await startRedisServer();
  receiver = await startFaultReceiver();
  ownerId = await seedOwner(database.db);
  env = appEnv({
    databaseUrl: database.url,
    redisUrl: redisServer.url,
    prefix: PREFIX,
    // One delivery at a time per lane, so queued events stay queued behind a held request.
    env: { WORKER_CONCURRENCY: "1" },
  });
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  receiver?.release();
  await apps.killAll();
  await receiver?.close();
  await redisServer?.close();
  await database?.destroy();
}, TEST_TIMEOUT_MS);

describe("Redis restarted empty under running apps", () => {
  it(
    "loses the queued and retrying jobs, and the sweeper re-enqueues every event until all are delivered",
    async () => {
      // Retrying: the receiver fails these, and their next attempt is seconds away
      // (600 s x HOOKFLOW_DELAY_SCALE 0.01), so their jobs sit delayed in Redis.
      const retrying = await seedWebhook(database.db, ownerId, {
        targetUrl: `${receiver.url}/flaky`,
        priority: 1,
        maxRetries: 5,
        retryDelaySeconds: 600,
      });
      // Queued: the first request is held open, and the rest wait behind it in their lane.
      const queued = await seedWebhook(database.db, ownerId, {
        targetUrl: `${receiver.url}/queued`,
        priority: 3,
      });
      let failing = true;
      let heldOne = false;
      receiver.reply((arrival) => {
        if (arrival.path === "/flaky") return { status: failing ? 500 : 200 };
        if (arrival.path === "/queued" && !heldOne) {
          heldOne = true;
          return { hold: true };
        }
        return { status: 200 };
      });
      const ingress = await apps.start("ingress", env);
      const worker = await apps.start("worker", env);

      const queuedIds = await Promise.all(
        [1, 2, 3, 4].map((n) => ingest(ingress, queued.ingressToken, { queued: n })),
      );
      await waitUntil(() => (heldOne ? true : undefined));
      // Last, so their retries (about 6 s away) are still scheduled when Redis dies.
      const retryIds = await Promise.all(
        [1, 2, 3, 4].map((n) => ingest(ingress, retrying.ingressToken, { retry: n })),
      );
      await waitForEvents(
        database.db,
        retryIds,
        (row) => row.status === "retrying" && row.attemptCount === 1,
      );

      // Before the restart every event has its job in Redis: the retrying ones delayed, one
      // queued event active (held) and the other three waiting behind it.
      const before = openQueues(redisServer.url, PREFIX);
      const count = (states: string[], ...wanted: string[]) =>
        states.filter((state) => wanted.includes(state)).length;
      let states: string[] = [];
      await waitUntil(
        async () => {
          states = await Promise.all([
            ...retryIds.map((id) => before.lane(1).getJobState(id)),
            ...queuedIds.map((id) => before.lane(3).getJobState(id)),
          ]);
          return count(states, "delayed") === 4 &&
            count(states, "active") === 1 &&
            count(states, "waiting", "prioritized") === 3
            ? true
            : undefined;
        },
        { describe: () => states.join(",") },
      );
      await before.close();

      await redisServer.kill();
      await redisServer.start();
      failing = false;
      receiver.release(200);

      // The ingress is back once Redis is: a new event is accepted again.
      const late = await waitUntil(
        async () => {
          const result = await post(ingress, queued.ingressToken, { queued: "late" });
          expect([202, 503]).toContain(result.status);
          return result.eventId;
        },
        { timeoutMs: 20_000 },
      );

      const all = [...retryIds, ...queuedIds, late];
      await waitForEvents(database.db, all, isDelivered, 45_000);
      for (const id of all) expect(receiver.delivered(id)).toBeGreaterThanOrEqual(1);

      // Every retrying event and every queued one that was not in flight had lost its job.
      const requeued = () =>
        worker
          .logs()
          .filter((line) => line.msg === "sweeper re-enqueued events without a job")
          .reduce((sum, line) => sum + Number(line.requeued), 0);
      await waitUntil(() => (requeued() >= 7 ? true : undefined), {
        describe: () => worker.output(),
      });
      for (const id of retryIds) {
        const attempts = await attemptRows(database.db, id);
        expect(attempts.map(({ success, statusCode }) => ({ success, statusCode }))).toEqual([
          { success: false, statusCode: 500 },
          { success: true, statusCode: 200 },
        ]);
      }
      const rows = await eventRows(database.db, queuedIds);
      expect(rows.map((row) => row.attemptCount)).toEqual(queuedIds.map(() => 1));
    },
    TEST_TIMEOUT_MS,
  );
});
