import { fileURLToPath } from "node:url";
import { type Database, type deliveryAttempts, type events, users } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { createDeliveryQueues, type DeliveryQueues } from "@hookflow/queue";
import {
  type ChildApp,
  createTestDatabase,
  createTestRedisPrefix,
  insertWebhookFixture,
  startChildApp,
  TEST_ENCRYPTION_KEY,
  type TestDatabase,
  type TestRedisPrefix,
  type WebhookFixture,
  waitUntil,
} from "@hookflow/testing";
import { Redis } from "ioredis";
import { type FaultReceiver, startFaultReceiver } from "./fault-receiver.js";

/** The built CLI (the root `pnpm test` builds before jest runs). */
const CLI = fileURLToPath(new URL("../../../cli/dist/main.js", import.meta.url));

export type Role = "api" | "ingress" | "worker" | "stream";
export type EventRow = typeof events.$inferSelect;
export type AttemptRow = typeof deliveryAttempts.$inferSelect;

/** Fast timings for child apps: retries, sweeper and stalled checks scaled down 100x. */
export const FAST_ENV = {
  HOOKFLOW_DELAY_SCALE: "0.01",
  DELIVERY_TIMEOUT_MS: "2000",
  WORKER_CONCURRENCY: "8",
  DATABASE_POOL_SIZE: "4",
} as const;

export function appEnv(options: {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  env?: Record<string, string>;
}): Record<string, string> {
  return {
    ...FAST_ENV,
    HOOKFLOW_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    HOOKFLOW_REDIS_PREFIX: options.prefix,
    ...options.env,
  };
}

/**
 * Child apps of one suite; `killAll` in afterEach/afterAll leaves nothing running. With
 * `HF_TEST_LOG` set, each app's output is written to stderr when it is killed.
 */
export function createApps() {
  const apps: ChildApp[] = [];
  const dump = (app: ChildApp) => {
    if (process.env.HF_TEST_LOG) process.stderr.write(`--- ${app.name}\n${app.output()}\n`);
  };
  return {
    start: async (role: Role, env: Record<string, string>, name: string = role) => {
      const app = await startChildApp({ entry: CLI, args: ["start", "--role", role], env, name });
      apps.push(app);
      return app;
    },
    killAll: async () => {
      await Promise.all(apps.splice(0).map((app) => app.kill().then(() => dump(app))));
    },
  };
}

export async function seedOwner(db: Database): Promise<string> {
  const id = newId("user");
  await db
    .insert(users)
    .values({ id, email: `${id.toLowerCase()}@example.test`, passwordHash: "x" });
  return id;
}

export type SeededWebhook = { id: string; ingressToken: string; priority: number };

export async function seedWebhook(
  db: Database,
  ownerId: string,
  overrides: Partial<WebhookFixture> & { targetUrl: string },
): Promise<SeededWebhook> {
  const { row, secrets } = await insertWebhookFixture(db, {
    ownerId,
    name: "fault test",
    retryDelaySeconds: 10,
    priority: 1,
    ...overrides,
  });
  return { id: row.id, ingressToken: secrets.ingressToken, priority: row.priority };
}

/** POSTs to the ingress; returns the status and, on 202, the event id. */
export async function post(
  ingress: { url: string },
  token: string,
  payload: unknown = { n: Math.random() },
): Promise<{ status: number; eventId?: string; body: unknown }> {
  const res = await fetch(`${ingress.url}/api/in/${token}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
  const body = (await res.json().catch(() => null)) as { eventId?: string } | null;
  return { status: res.status, body, ...(body?.eventId ? { eventId: body.eventId } : {}) };
}

/** POSTs and expects a 202; returns the event id. */
export async function ingest(ingress: { url: string }, token: string, payload?: unknown) {
  const result = await post(ingress, token, payload);
  if (result.status !== 202 || !result.eventId) {
    throw new Error(`ingress answered ${result.status}: ${JSON.stringify(result.body)}`);
  }
  return result.eventId;
}

export async function eventRows(db: Database, ids: string[]): Promise<EventRow[]> {
  return db.query.events.findMany({ where: (e, { inArray }) => inArray(e.id, ids) });
}

export async function attemptRows(db: Database, eventId: string): Promise<AttemptRow[]> {
  return db.query.deliveryAttempts.findMany({
    where: (a, { eq }) => eq(a.eventId, eventId),
    orderBy: (a, { asc }) => [asc(a.attempt), asc(a.attemptedAt)],
  });
}

/** Polls until every event in `ids` satisfies `done`; the error names the stragglers. */
export async function waitForEvents(
  db: Database,
  ids: string[],
  done: (row: EventRow) => boolean,
  timeoutMs = 30_000,
): Promise<EventRow[]> {
  let last: EventRow[] = [];
  return waitUntil(
    async () => {
      last = await eventRows(db, ids);
      return last.length === ids.length && last.every(done) ? last : undefined;
    },
    {
      timeoutMs,
      intervalMs: 50,
      describe: () =>
        JSON.stringify(
          last
            .filter((row) => !done(row))
            .map(({ id, status, attemptCount, lastError, nextAttemptAt }) => ({
              id,
              status,
              attemptCount,
              lastError,
              nextAttemptAt,
            })),
        ),
    },
  );
}

export const isDelivered = (row: EventRow) => row.status === "delivered";

/** BullMQ handles on the delivery lanes of one prefix, to look at jobs from the test. */
export function openQueues(redisUrl: string, prefix: string) {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queues: DeliveryQueues = createDeliveryQueues({ connection, prefix });
  return {
    queues,
    lane: (priority: number) => {
      const queue = queues.get(priority as 1 | 2 | 3 | 4 | 5);
      if (!queue) throw new Error(`no lane ${priority}`);
      return queue;
    },
    connection,
    /** Jobs active in any lane. */
    activeCount: async () => {
      let total = 0;
      for (const queue of queues.values()) total += await queue.getActiveCount();
      return total;
    },
    close: async () => {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      connection.disconnect();
    },
  };
}

/** `delivery job` log lines of a worker for `eventId` (or all of them). */
export function deliveryLogs(app: ChildApp, eventId?: string) {
  return app
    .logs()
    .filter((line) => line.msg === "delivery job" && (!eventId || line.eventId === eventId));
}

export type QueueFaultSuite = {
  database: TestDatabase;
  redis: TestRedisPrefix;
  receiver: FaultReceiver;
  queues: ReturnType<typeof openQueues>;
  ingress: ChildApp;
  ownerId: string;
  env: Record<string, string>;
  /** Workers started by a test; all are killed after each test. */
  workers: ReturnType<typeof createApps>;
};

/**
 * Registers the hooks of a suite that runs workers against one ingress on a test database and
 * Redis prefix: the returned object is filled in `beforeAll`; workers and held requests are
 * cleared after each test, and everything is torn down after all.
 */
export function useQueueFaultSuite(timeoutMs: number): QueueFaultSuite {
  const apps = createApps();
  const suite = { workers: createApps() } as QueueFaultSuite;
  beforeAll(async () => {
    suite.database = await createTestDatabase();
    suite.redis = createTestRedisPrefix();
    suite.receiver = await startFaultReceiver();
    suite.queues = openQueues(suite.redis.url, suite.redis.prefix);
    suite.env = appEnv({
      databaseUrl: suite.database.url,
      redisUrl: suite.redis.url,
      prefix: suite.redis.prefix,
    });
    suite.ownerId = await seedOwner(suite.database.db);
    suite.ingress = await apps.start("ingress", suite.env);
  }, timeoutMs);
  afterEach(async () => {
    await suite.workers.killAll();
    suite.receiver.release();
  }, timeoutMs);
  afterAll(async () => {
    await suite.workers.killAll();
    await apps.killAll();
    await suite.queues?.close();
    await suite.receiver?.close();
    await suite.redis?.destroy();
    await suite.database?.destroy();
  }, timeoutMs);
  return suite;
}
