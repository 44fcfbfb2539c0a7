import { createDb, type DbHandle, events, migrateDatabase } from "@hookflow/db";
import {
  type ChildApp,
  createPostgresCluster,
  type PostgresCluster,
  type RedisServer,
  startRedisServer,
  waitUntil,
} from "@hookflow/testing";
import {
  appEnv,
  attemptRows,
  createApps,
  eventRows,
  isDelivered,
  post,
  type SeededWebhook,
  seedOwner,
  seedWebhook,
  waitForEvents,
} from "./fault-kit.js";
import { type FaultReceiver, holdFirstAt, startFaultReceiver } from "./fault-receiver.js";

const TEST_TIMEOUT_MS = 90_000;
const PREFIX = "hf_fault_pg";

let cluster: PostgresCluster;
let redisServer: RedisServer;
let db: DbHandle;
let receiver: FaultReceiver;
let ingress: ChildApp;
let ownerId: string;
let webhook: SeededWebhook;
const apps = createApps();
let env: Record<string, string>;

beforeAll(async () => {
  [cluster, redisServer, receiver] = await Promise.all([
    createPostgresCluster(),
    startRedisServer(),
    startFaultReceiver(),
  ]);
  const databaseUrl = cluster.url("hookflow");
  await migrateDatabase({ url: databaseUrl });
  db = createDb({ url: databaseUrl, max: 2, applicationName: "hookflow-test" });
  ownerId = await seedOwner(db.db);
  webhook = await seedWebhook(db.db, ownerId, { targetUrl: `${receiver.url}/outage` });
  env = appEnv({ databaseUrl, redisUrl: redisServer.url, prefix: PREFIX });
  ingress = await apps.start("ingress", env);
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  receiver?.release();
  await apps.killAll();
  await db?.close();
  await receiver?.close();
  await redisServer?.close();
  await cluster?.destroy();
}, TEST_TIMEOUT_MS);

async function storedEventCount(): Promise<number> {
  return (await db.db.select({ id: events.id }).from(events)).length;
}

/**
 * Posts `count` events one after another while a dependency is down: every answer must be 503,
 * never 202, in the documented error shape.
 */
async function expectOnly503(count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    const result = await post(ingress, webhook.ingressToken, { outage: n });
    expect({ status: result.status, body: result.body }).toEqual({
      status: 503,
      body: expect.objectContaining({ statusCode: 503, error: "Service Unavailable" }),
    });
  }
}

/** Posts until the ingress accepts again; anything but 503 on the way fails the test. */
async function postUntilAccepted(): Promise<string> {
  return waitUntil(
    async () => {
      const result = await post(ingress, webhook.ingressToken, { recovered: true });
      expect([202, 503]).toContain(result.status);
      return result.eventId;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
}

describe("the ingress when its own Postgres goes down", () => {
  it(
    "answers 503 and never 202 while Postgres is down, and 202 again once it is back",
    async () => {
      const accepted = [(await post(ingress, webhook.ingressToken, { before: true })).eventId];
      expect(accepted[0]).toEqual(expect.any(String));

      await cluster.stop("immediate");
      await expectOnly503(3);
      await cluster.start();
      accepted.push(await postUntilAccepted());

      // Every 202 is a stored event and no 503 left one behind.
      expect(await storedEventCount()).toBe(accepted.length);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("the ingress when its own Redis goes down", () => {
  it(
    "answers 503 and never 202 while Redis is down, and 202 again once it is back",
    async () => {
      const before = await storedEventCount();
      await redisServer.kill();
      // Once the ingress has seen Redis go (its health says so), a batch is refused before its
      // insert. (A batch stored in the moment before keeps its 202: its events wait, pending, for
      // the sweeper; the ingress's own tests cover that.)
      await waitUntil(async () => {
        const res = await fetch(`${ingress.url}/api/health`);
        const body = (await res.json()) as { checks?: { redis?: boolean } };
        return res.status === 503 && body.checks?.redis === false ? true : undefined;
      });
      await expectOnly503(2);
      await redisServer.start();
      await postUntilAccepted();
      // The refused batches stored nothing; only the accepted event was added.
      expect(await storedEventCount()).toBe(before + 1);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("a delivery whose attempt cannot be recorded after the receiver answered 2xx", () => {
  it(
    "is sent again once Postgres is back: at-least-once, a duplicate with the same event id",
    async () => {
      const dupWebhook = await seedWebhook(db.db, ownerId, { targetUrl: `${receiver.url}/dup` });
      const worker = await apps.start("worker", env);
      holdFirstAt(receiver, "/dup");
      const { eventId } = await post(ingress, dupWebhook.ingressToken, { order: "dup" });
      if (!eventId) throw new Error("not accepted");
      await waitUntil(() =>
        receiver.arrivals.some((arrival) => arrival.eventId === eventId) ? true : undefined,
      );

      // Postgres dies while the request is in flight; the receiver then answers 200.
      await cluster.stop("immediate");
      receiver.release(200);
      await worker.waitForLog(
        (line) =>
          line.msg === "delivery job crashed; BullMQ will retry it" && line.eventId === eventId,
      );
      await cluster.start();
      const [row] = await waitForEvents(db.db, [eventId], isDelivered, 45_000);

      // The receiver got the event twice, both times as attempt 1 with the same event id:
      // it must dedupe by X-Hookflow-Event-Id. Only the second attempt is recorded.
      const arrivals = receiver.arrivals.filter((arrival) => arrival.eventId === eventId);
      expect(arrivals.map(({ attempt, answered }) => ({ attempt, answered }))).toEqual([
        { attempt: "1", answered: 200 },
        { attempt: "1", answered: 200 },
      ]);
      expect(row?.attemptCount).toBe(1);
      const attempts = await attemptRows(db.db, eventId);
      expect(attempts.map(({ success, statusCode }) => ({ success, statusCode }))).toEqual([
        { success: true, statusCode: 200 },
      ]);
      expect((await eventRows(db.db, [eventId]))[0]?.status).toBe("delivered");
    },
    TEST_TIMEOUT_MS,
  );
});
