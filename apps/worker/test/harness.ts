import { createHmac, randomBytes } from "node:crypto";
import { loadConfig } from "@hookflow/config";
import { type deliveryAttempts, events, users, type webhooks } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { createLogger, createMetrics, type Logger } from "@hookflow/observability";
import { enqueueDeliveries } from "@hookflow/queue";
import {
  createTestDatabase,
  createTestRedisPrefix,
  insertWebhookFixture,
  TEST_ENCRYPTION_KEY,
  type TestDatabase,
  type TestRedisPrefix,
  type WebhookFixture,
  waitUntil,
} from "@hookflow/testing";
import {
  type BuildWorkerServicesOptions,
  buildWorkerServices,
  type WorkerServices,
} from "../src/services.js";
import { type RunningWorker, startWorker } from "../src/start-worker.js";
import type { SweeperOptions } from "../src/sweeper/sweeper.js";

type EventRow = typeof events.$inferSelect;
type AttemptRow = typeof deliveryAttempts.$inferSelect;

export interface WorkerHarness {
  services: WorkerServices;
  worker: RunningWorker;
  database: TestDatabase;
  ownerId: string;
  createWebhook: (overrides?: Partial<WebhookFixture>) => Promise<typeof webhooks.$inferSelect>;
  /** Inserts a pending event (as the ingress does) and, unless `enqueue: false`, enqueues it. */
  createEvent: (
    webhook: { id: string; priority: number },
    options?: { body?: string; enqueue?: boolean; createdAt?: Date },
  ) => Promise<{ id: string; body: string }>;
  enqueue: (webhook: { priority: number }, eventId: string, webhookId: string) => Promise<void>;
  event: (id: string) => Promise<EventRow>;
  attempts: (eventId: string) => Promise<AttemptRow[]>;
  webhook: (id: string) => Promise<typeof webhooks.$inferSelect>;
  /** Polls the event until `done(event)` holds. */
  waitForEvent: (
    id: string,
    done: (event: EventRow) => boolean,
    timeoutMs?: number,
  ) => Promise<EventRow>;
  waitForStatus: (id: string, status: string, timeoutMs?: number) => Promise<EventRow>;
  /** Closes the running worker gracefully and starts a new one on the same services. */
  restartWorker: () => Promise<void>;
  close: () => Promise<void>;
}

export const TEST_SECRET = `whsec_${randomBytes(32).toString("base64")}`;

const PINO_LEVELS = new Set(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

/**
 * The in-process worker's log level: `HF_TEST_LOG` when it names a level, `info` when it is set
 * to anything else (the fault kit reads it as a switch), silent when unset.
 */
function testLogLevel(): string {
  const wanted = process.env.HF_TEST_LOG;
  if (!wanted) return "silent";
  return PINO_LEVELS.has(wanted) ? wanted : "info";
}

/**
 * Worker services on a test database and Redis prefix of their own, with no lane workers started
 * (`startWorkerHarness` starts them; a test of the sweeper alone does not).
 */
export function buildTestWorkerServices(
  database: TestDatabase,
  redis: TestRedisPrefix,
  env: Record<string, string> = {},
  sweeper: Partial<SweeperOptions> = {},
  plugins: Pick<BuildWorkerServicesOptions, "aiTools" | "resolveBearerToken" | "logger"> = {},
): WorkerServices {
  const config = loadConfig({
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    HOOKFLOW_REDIS_PREFIX: redis.prefix,
    HOOKFLOW_SECRET: "test-secret-test-secret-test-secret-123",
    HOOKFLOW_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    HOOKFLOW_DELAY_SCALE: "0.001",
    DELIVERY_TIMEOUT_MS: "3000",
    LOG_LEVEL: "silent",
    ...env,
  });
  return buildWorkerServices({
    config,
    metrics: createMetrics({ role: "worker", defaultMetrics: false }),
    sweeper,
    ...plugins,
    logger: plugins.logger ?? createLogger({ level: testLogLevel(), role: "worker" }),
  });
}

export async function startWorkerHarness(
  env: Record<string, string> = {},
  sweeper: Partial<SweeperOptions> = {},
  logger?: Logger,
): Promise<WorkerHarness> {
  const database = await createTestDatabase();
  const redis = createTestRedisPrefix();
  let services: WorkerServices;
  try {
    services = buildTestWorkerServices(database, redis, env, sweeper, logger ? { logger } : {});
  } catch (error) {
    // A harness that cannot be built leaves no database or keys behind.
    await database.destroy();
    await redis.destroy();
    throw error;
  }
  let worker = await startWorker(services);
  const db = database.db;
  const ownerId = newId("user");
  await db.insert(users).values({
    id: ownerId,
    email: `${ownerId.toLowerCase()}@example.test`,
    passwordHash: "unusable",
  });

  const event = async (id: string) => {
    const row = await db.query.events.findFirst({ where: (e, { eq }) => eq(e.id, id) });
    if (!row) throw new Error(`event ${id} not found`);
    return row;
  };
  const waitForEvent: WorkerHarness["waitForEvent"] = async (id, done, timeoutMs = 15_000) => {
    let last: Awaited<ReturnType<typeof event>> | undefined;
    return waitUntil(
      async () => {
        last = await event(id);
        return done(last) ? last : undefined;
      },
      {
        timeoutMs,
        describe: () => `event ${id} did not reach the expected state: ${JSON.stringify(last)}`,
      },
    );
  };
  const enqueue: WorkerHarness["enqueue"] = (webhook, eventId, webhookId) =>
    enqueueDeliveries(services.queues, [
      { priority: webhook.priority, data: { eventId, webhookId } },
    ]);

  return {
    services,
    get worker() {
      return worker;
    },
    database,
    ownerId,
    createWebhook: async (overrides = {}) => {
      const { row } = await insertWebhookFixture(db, {
        ownerId,
        name: "worker test",
        signingSecret: TEST_SECRET,
        retryDelaySeconds: 10,
        ...overrides,
      });
      return row;
    },
    createEvent: async (webhook, options = {}) => {
      const id = newId("event");
      const body = options.body ?? JSON.stringify({ type: "order.created", id, n: Math.random() });
      const at = options.createdAt ?? new Date();
      await db.insert(events).values({
        id,
        webhookId: webhook.id,
        status: "pending",
        body,
        priority: webhook.priority,
        nextAttemptAt: at,
        createdAt: at,
        updatedAt: at,
      });
      if (options.enqueue !== false) {
        await enqueueDeliveries(services.queues, [
          {
            priority: webhook.priority,
            data: { eventId: id, webhookId: webhook.id },
          },
        ]);
      }
      return { id, body };
    },
    enqueue,
    event,
    attempts: (eventId) =>
      db.query.deliveryAttempts.findMany({
        where: (a, { eq }) => eq(a.eventId, eventId),
        orderBy: (a, { asc }) => [asc(a.attempt)],
      }),
    webhook: async (id) => {
      const row = await db.query.webhooks.findFirst({ where: (w, { eq }) => eq(w.id, id) });
      if (!row) throw new Error(`webhook ${id} not found`);
      return row;
    },
    waitForEvent,
    waitForStatus: (id, status, timeoutMs) =>
      waitForEvent(id, (row) => row.status === status, timeoutMs),
    restartWorker: async () => {
      await worker.close();
      worker = await startWorker(services);
    },
    close: async () => {
      await worker.close();
      await services.close();
      await database.destroy();
      await redis.destroy();
    },
  };
}

/** Receiver-side recomputation of `X-Hookflow-Signature` (written from decisions.md, not the code). */
export function expectedHookflowSignature(secret: string, t: string, body: Buffer): string {
  return createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(Buffer.concat([Buffer.from(`${t}.`), body]))
    .digest("hex");
}

/** Receiver-side recomputation of the Standard Webhooks signature. */
export function expectedStandardSignature(
  secret: string,
  id: string,
  ts: string,
  body: Buffer,
): string {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  return createHmac("sha256", key)
    .update(Buffer.concat([Buffer.from(`${id}.${ts}.`), body]))
    .digest("base64");
}
