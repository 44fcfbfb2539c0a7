import { createLogger } from "@hookflow/observability";
import {
  closeDeliveryQueues,
  createDeliveryQueues,
  createScheduleQueue,
  redisKeys,
} from "@hookflow/queue";
import {
  createTestDatabase,
  createTestRedisPrefix,
  type TestDatabase,
  testKeyRing,
} from "@hookflow/testing";
import { Redis } from "ioredis";
import { SCOPES, type Scope } from "../src/actor.js";
import type { ServiceContext } from "../src/context.js";
import type { Actor } from "../src/index.js";

/**
 * The verbs' context of a suite, with the members its verbs read beyond ServiceContext (`config`,
 * batch sizes) and the test database it runs on.
 */
export type TestContext<Extra extends object = Record<never, never>> = ServiceContext &
  Extra & {
    database: TestDatabase;
    close: () => Promise<void>;
  };

/**
 * The verbs' context against a database and Redis prefix of its own (suites run in parallel),
 * with `extra` (a `config` and the like) added to it.
 */
export async function createTestContext<Extra extends object = Record<never, never>>(
  extra?: Extra,
): Promise<TestContext<Extra>> {
  const database = await createTestDatabase();
  const prefix = createTestRedisPrefix();
  const redis = new Redis(prefix.url, { maxRetriesPerRequest: 2 });
  const queues = createDeliveryQueues({ connection: redis, prefix: prefix.prefix });
  const schedules = createScheduleQueue({ connection: redis, prefix: prefix.prefix });
  const base: ServiceContext = {
    db: database,
    redis,
    keys: redisKeys(prefix.prefix),
    queues,
    schedules,
    keyRing: testKeyRing(),
    logger: createLogger({ level: "silent", role: "api" }),
    now: () => new Date(),
  };
  return {
    ...base,
    ...(extra as Extra),
    database,
    close: async () => {
      await closeDeliveryQueues(queues);
      await schedules.close();
      redis.disconnect();
      await database.destroy();
      await prefix.destroy();
    },
  };
}

/** A person acting with a session (every scope), or an API key with the scopes given. */
export function actorOf(
  userId: string,
  options: { kind?: Actor["kind"]; scopes?: readonly Scope[]; organizationId?: string } = {},
): Actor {
  const kind = options.kind ?? "session";
  return {
    kind,
    userId,
    organizationId: options.organizationId ?? null,
    memberships: new Map(),
    scopes: new Set(options.scopes ?? SCOPES),
    apiKeyId: kind === "apiKey" ? `key_${userId}` : null,
    credentialId: `cred_${userId}`,
    restrictedToOrganization: null,
  };
}
