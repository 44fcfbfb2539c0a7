import { loadConfig } from "@hookflow/config";
import { type Database, users } from "@hookflow/db";
import { newId, randomToken } from "@hookflow/domain";
import { createLogger } from "@hookflow/observability";
import { createDeliveryQueues, type DeliveryQueues, type Priority } from "@hookflow/queue";
import {
  createTestDatabase,
  createTestRedisPrefix,
  insertWebhookFixture,
  TEST_ENCRYPTION_KEY,
  type TestDatabase,
  type WebhookFixture,
} from "@hookflow/testing";
import { Redis } from "ioredis";
import { createIngressApp } from "../src/app.js";
import { buildIngressServices, type IngressServices } from "../src/services.js";

export const TEST_SECRET = "ingress-test-secret-ingress-test-secret";

export interface IngressHarness {
  app: ReturnType<typeof createIngressApp>;
  services: IngressServices;
  database: TestDatabase;
  prefix: string;
  /** A separate Redis connection for the test's own reads and publishes. */
  redis: Redis;
  queues: DeliveryQueues;
  ownerId: string;
  post: (
    token: string,
    body: string | Uint8Array | ReadableStream<Uint8Array>,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; body: any; headers: Headers }>;
  createWebhook: (values?: Partial<WebhookFixture>) => Promise<{ id: string; token: string }>;
  eventRows: (webhookId: string) => Promise<any[]>;
  jobOf: (priority: Priority, eventId: string) => Promise<{ data: any } | undefined>;
  close: () => Promise<void>;
}

export async function insertOwner(db: Database): Promise<string> {
  const id = newId("user");
  await db
    .insert(users)
    .values({ id, email: `${id.toLowerCase()}@example.test`, passwordHash: "x" });
  return id;
}

export async function insertWebhook(
  db: Database,
  ownerId: string,
  values: Partial<WebhookFixture> = {},
): Promise<{ id: string; token: string }> {
  const { row, secrets } = await insertWebhookFixture(db, {
    ownerId,
    name: "ingress test",
    ingressToken: randomToken(40),
    ...values,
  });
  return { id: row.id, token: secrets.ingressToken };
}

/** The real ingress against a database and Redis prefix of its own. */
export async function startIngress(env: Record<string, string> = {}): Promise<IngressHarness> {
  const database = await createTestDatabase();
  const redisPrefix = createTestRedisPrefix();
  const config = loadConfig({
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    REDIS_URL: redisPrefix.url,
    HOOKFLOW_REDIS_PREFIX: redisPrefix.prefix,
    HOOKFLOW_SECRET: TEST_SECRET,
    HOOKFLOW_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    LOG_LEVEL: "silent",
    ...env,
  });
  const services = buildIngressServices({
    config,
    logger: createLogger({ level: "silent", role: "ingress" }),
  });
  await services.subscribed();
  const app = createIngressApp(services);
  const redis = new Redis(redisPrefix.url);
  const queues = createDeliveryQueues({ connection: redis, prefix: redisPrefix.prefix });
  const ownerId = await insertOwner(database.db);

  return {
    app,
    services,
    database,
    prefix: redisPrefix.prefix,
    redis,
    queues,
    ownerId,
    post: async (token, body, headers = {}) => {
      const init: RequestInit & { duplex?: "half" } = { method: "POST", headers, body };
      if (body instanceof ReadableStream) init.duplex = "half";
      const res = await app.request(`/api/in/${token}`, init);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
    },
    createWebhook: (values) => insertWebhook(database.db, ownerId, values),
    eventRows: (webhookId) =>
      database.sql`select * from events where webhook_id = ${webhookId} order by created_at, id`,
    jobOf: async (priority, eventId) => {
      // A 202 waits for the store only; its batch enqueues after it (docs/decisions.md, "Durable,
      // then queued"). Every batch written so far has enqueued once the group commit drains.
      await services.batcher.drain();
      const queue = queues.get(priority);
      if (!queue) throw new Error(`no lane ${priority}`);
      return (await queue.getJob(eventId)) ?? undefined;
    },
    close: async () => {
      await services.close();
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      redis.disconnect();
      await database.destroy();
      await redisPrefix.destroy();
    },
  };
}
