import { fileURLToPath } from "node:url";
import {
  type ChildApp,
  createTestDatabase,
  createTestRedisPrefix,
  insertWebhookFixture,
  startChildApp,
  TEST_ENCRYPTION_KEY,
  type TestDatabase,
  type TestRedisPrefix,
  waitUntil,
} from "@hookflow/testing";
import { Redis } from "ioredis";
import { insertOwner } from "./harness.js";

const CLI = fileURLToPath(new URL("../../cli/dist/main.js", import.meta.url));

/**
 * A crash of the ingress between the dedup claim and the store: the claim is in Redis, the event
 * never reached Postgres. The sender's retry must be stored, never answered "deduplicated" with
 * an event that does not exist.
 */
describe("an ingress killed between its dedup claim and its store", () => {
  let database: TestDatabase;
  let prefix: TestRedisPrefix;
  let redis: Redis;
  const apps: ChildApp[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    prefix = createTestRedisPrefix();
    redis = new Redis(prefix.url);
  });
  afterAll(async () => {
    for (const app of apps) await app.kill();
    redis?.disconnect();
    await database?.destroy();
    await prefix?.destroy();
  });

  const startIngress = async () => {
    const app = await startChildApp({
      entry: CLI,
      args: ["start", "--role", "ingress"],
      env: {
        DATABASE_URL: database.url,
        REDIS_URL: prefix.url,
        HOOKFLOW_REDIS_PREFIX: prefix.prefix,
        HOOKFLOW_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        // Scales the pending claim's lifetime down to its 2 s floor.
        HOOKFLOW_DELAY_SCALE: "0.01",
      },
      name: "ingress",
    });
    apps.push(app);
    return app;
  };
  const send = (app: ChildApp, token: string) =>
    fetch(`${app.url}/api/in/${token}`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "delivery-1" },
      body: JSON.stringify({ order: 1 }),
    });

  it("stores the sender's retry instead of answering it as a duplicate", async () => {
    const ownerId = await insertOwner(database.db);
    const { row, secrets } = await insertWebhookFixture(database.db, {
      ownerId,
      name: "dedup crash",
      dedupEnabled: true,
      isActive: false,
    });
    const dedupKey = `${prefix.prefix}:dedup:${row.id}:delivery-1`;
    const first = await startIngress();

    // Hold the events table so the store cannot happen, then kill the ingress mid-request.
    const blocker = await database.sql.reserve();
    await blocker`begin`;
    await blocker`lock table events in access exclusive mode`;
    const request = send(first, secrets.ingressToken).catch(() => null);
    await waitUntil(async () => ((await redis.exists(dedupKey)) === 1 ? true : undefined));
    await waitUntil(async () => {
      const [row] = await database.sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`;
      return (row?.n ?? 0) > 0 ? true : undefined;
    });
    await first.kill();
    expect(await request).toBeNull();
    // The dead process's statement never commits (a crash before the INSERT reached Postgres).
    await database.sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    await blocker`rollback`;
    blocker.release();
    expect(await database.sql`select id from events`).toEqual([]);

    // The sender retries until it gets an answer; no answer may name a missing event.
    const second = await startIngress();
    const answers: Array<{ status: number; body: Record<string, unknown> }> = [];
    const accepted = await waitUntil(
      async () => {
        const res = await send(second, secrets.ingressToken);
        const answer = { status: res.status, body: (await res.json()) as Record<string, unknown> };
        answers.push(answer);
        return res.status === 202 || res.status === 200 ? answer : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(accepted.status).toBe(202);
    expect(answers.slice(0, -1).every((answer) => answer.status === 409)).toBe(true);
    const stored = await database.sql`select id from events`;
    expect(stored.map((event) => event.id)).toEqual([accepted.body.eventId]);

    // From now on repeats are answered with that stored event.
    const repeat = await send(second, secrets.ingressToken);
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toMatchObject({
      deduplicated: true,
      originalEventId: accepted.body.eventId,
    });
  }, 60_000);
});
