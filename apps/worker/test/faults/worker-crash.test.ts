import {
  type ChildApp,
  createTestDatabase,
  createTestRedisPrefix,
  type TestDatabase,
  type TestRedisPrefix,
  waitUntil,
} from "@hookflow/testing";
import { laneTiming } from "../../src/lanes/lane-timing.js";
import {
  appEnv,
  attemptRows,
  createApps,
  deliveryLogs,
  FAST_ENV,
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

describe("a worker killed with SIGKILL mid-delivery", () => {
  it(
    "leaves the job to another worker once its lock expires, and that worker delivers and records it",
    async () => {
      const webhook = await seedWebhook(database.db, ownerId, {
        targetUrl: `${receiver.url}/kill`,
      });
      const first = await workers.start("worker", env, "worker-a");
      let killed = false;
      receiver.reply((arrival) => {
        if (arrival.path !== "/kill" || killed) return { status: 200 };
        killed = true;
        first.signal("SIGKILL");
        return { hold: true };
      });

      const eventId = await ingest(ingress, webhook.ingressToken, { order: 1 });
      expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
      // The dead worker's job is still active in Redis, under a lock nobody renews.
      expect(await queues.lane(webhook.priority).getJobState(eventId)).toBe("active");

      const second = await workers.start("worker", env, "worker-b");
      const [row] = await waitForEvents(database.db, [eventId], isDelivered);

      const arrivals = receiver.arrivals.filter((arrival) => arrival.eventId === eventId);
      expect(arrivals.map(({ attempt, answered }) => ({ attempt, answered }))).toEqual([
        // The killed worker never recorded its attempt, so the retry is attempt 1 again.
        { attempt: "1", answered: undefined },
        { attempt: "1", answered: 200 },
      ]);
      expect(row?.attemptCount).toBe(1);
      const attempts = await attemptRows(database.db, eventId);
      expect(
        attempts.map(({ attempt, success, statusCode }) => ({ attempt, success, statusCode })),
      ).toEqual([{ attempt: 1, success: true, statusCode: 200 }]);
      await second.waitForLog(
        (line) =>
          line.msg === "delivery job" && line.eventId === eventId && line.outcome === "delivered",
      );
      expect(await queues.activeCount()).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("a worker frozen mid-delivery for longer than DELIVERY_TIMEOUT_MS", () => {
  it(
    "keeps its job's lock, so a second worker checking for stalled jobs never sends a concurrent copy",
    async () => {
      const webhook = await seedWebhook(database.db, ownerId, {
        targetUrl: `${receiver.url}/freeze`,
      });
      const frozen = await workers.start("worker", env, "worker-frozen");
      let frozenAt = 0;
      receiver.reply((arrival) => {
        if (arrival.path !== "/freeze" || frozenAt > 0) return { status: 200 };
        frozenAt = Date.now();
        frozen.signal("SIGSTOP");
        return { hold: true };
      });

      const eventId = await ingest(ingress, webhook.ingressToken, { order: 2 });
      await waitUntil(() => (frozenAt > 0 ? true : undefined));
      const lane = queues.lane(webhook.priority);
      const redisCmd = queues.connection;
      const lockKey = lane.toKey(`${eventId}:lock`);
      const owner = await redisCmd.get(lockKey);
      expect(owner).toEqual(expect.any(String));
      const other = await workers.start("worker", env, "worker-watching");

      // Freeze until a lock of only DELIVERY_TIMEOUT_MS would have expired and the other
      // worker's stalled check (every `stalledInterval`) would have run several times since.
      const timeoutMs = Number(FAST_ENV.DELIVERY_TIMEOUT_MS);
      const { stalledInterval } = laneTiming({
        deliveryTimeoutMs: timeoutMs,
        delayScale: Number(FAST_ENV.HOOKFLOW_DELAY_SCALE),
      });
      await waitUntil(
        async () =>
          (await redisCmd.sismember(lane.toKey("stalled"), eventId)) === 1 &&
          Date.now() - frozenAt > timeoutMs + 4 * stalledInterval
            ? true
            : undefined,
        { timeoutMs: 20_000, describe: () => other.output() },
      );
      // Still the frozen worker's lock; never moved back to wait by a stalled check (`stc`).
      expect(await redisCmd.get(lockKey)).toBe(owner);
      expect(await redisCmd.hget(lane.toKey(eventId), "stc")).toBeNull();
      expect(await lane.getJobState(eventId)).toBe("active");
      expect(receiver.arrivals.filter((arrival) => arrival.eventId === eventId)).toHaveLength(1);
      expect(deliveryLogs(other, eventId)).toEqual([]);

      receiver.release();
      frozen.signal("SIGCONT");
      await waitForEvents(database.db, [eventId], isDelivered);

      // Resumed past its timeout, the frozen worker may have recorded a timeout and retried;
      // either way no two copies of the event were ever in flight together.
      expect(receiver.maxInFlight([eventId])).toBe(1);
      expect(receiver.delivered(eventId)).toBeGreaterThanOrEqual(1);
      const attempts = await attemptRows(database.db, eventId);
      expect(attempts.at(-1)?.success).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "gives a slow receiver exactly one request while two workers share the queue",
    async () => {
      const webhook = await seedWebhook(database.db, ownerId, {
        targetUrl: `${receiver.url}/slow`,
      });
      await workers.start("worker", env, "worker-1");
      await workers.start("worker", env, "worker-2");
      // Slower than many stalled checks of both workers, within the HTTP timeout.
      receiver.reply(() => ({ status: 200, delayMs: Number(FAST_ENV.DELIVERY_TIMEOUT_MS) / 2 }));

      const ids = await Promise.all(
        [1, 2, 3, 4].map((n) => ingest(ingress, webhook.ingressToken, { slow: n })),
      );
      await waitForEvents(database.db, ids, isDelivered);

      expect(receiver.maxInFlight(ids)).toBe(1);
      expect(ids.map((id) => receiver.delivered(id))).toEqual([1, 1, 1, 1]);
    },
    TEST_TIMEOUT_MS,
  );
});
