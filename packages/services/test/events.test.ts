import { events, findEventWithOwner, users } from "@hookflow/db";
import { ConflictError, ForbiddenError, NotFoundError, newId } from "@hookflow/domain";
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
  insertWebhookFixture,
  type TestDatabase,
  type TestRedisPrefix,
  testKeyRing,
} from "@hookflow/testing";
import { Redis } from "ioredis";
import {
  type Actor,
  cancelEvent,
  eventStats,
  getEvent,
  listEvents,
  replayAllFailed,
  replayEvent,
  SCOPES,
  type Scope,
  sendTestEvent,
  type TestEventContext,
} from "../src/index.js";

const SECRET = "services-test-secret-services-test-secret";

function actorOf(userId: string, scopes: readonly Scope[] = SCOPES): Actor {
  return {
    kind: "session",
    userId,
    organizationId: null,
    memberships: new Map(),
    scopes: new Set(scopes),
    apiKeyId: null,
    credentialId: `cred_${userId}`,
    restrictedToOrganization: null,
  };
}

describe("events verbs", () => {
  let database: TestDatabase;
  let prefix: TestRedisPrefix;
  let ctx: TestEventContext & { replayAllBatchSize: number };
  let alice: Actor;
  let bob: Actor;
  let hook: string;
  let inactiveHook: string;

  const insertUser = async (): Promise<string> => {
    const id = newId("user");
    await database.db
      .insert(users)
      .values({ id, email: `${id.toLowerCase()}@example.test`, name: "Test", passwordHash: "x" });
    return id;
  };
  const insertEvent = async (
    webhookId: string,
    status: "pending" | "failed" | "delivered",
  ): Promise<string> => {
    const id = newId("event");
    await database.db.insert(events).values({
      id,
      webhookId,
      status,
      body: JSON.stringify({ n: 1 }),
      headers: { "content-type": "application/json" },
    });
    return id;
  };
  const statusOf = async (id: string): Promise<string | undefined> =>
    (await findEventWithOwner(database.db, id))?.event.status;
  /** The event's delivery job, on whichever lane it was queued. */
  const jobOf = async (eventId: string) => {
    const found = await Promise.all([...ctx.queues.values()].map((q) => q.getJob(eventId)));
    return found.find((job) => job !== undefined);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    prefix = createTestRedisPrefix();
    const redis = new Redis(prefix.url, { maxRetriesPerRequest: 2 });
    ctx = {
      db: database,
      redis,
      keys: redisKeys(prefix.prefix),
      queues: createDeliveryQueues({ connection: redis, prefix: prefix.prefix }),
      schedules: createScheduleQueue({ connection: redis, prefix: prefix.prefix }),
      keyRing: testKeyRing(),
      logger: createLogger({ level: "silent", role: "api" }),
      now: () => new Date(),
      config: { maxPayloadBytes: 1024, secret: SECRET },
      replayAllBatchSize: 2,
    };
    alice = actorOf(await insertUser());
    bob = actorOf(await insertUser());
    const base = { name: "hook", targetUrl: "http://127.0.0.1:9/hook" };
    hook = (await insertWebhookFixture(database.db, { ...base, ownerId: alice.userId })).row.id;
    inactiveHook = (
      await insertWebhookFixture(database.db, { ...base, ownerId: alice.userId, isActive: false })
    ).row.id;
  });
  afterAll(async () => {
    await closeDeliveryQueues(ctx.queues);
    await ctx.schedules.close();
    ctx.redis.disconnect();
    await database.destroy();
    await prefix.destroy();
  });

  it("sendTestEvent stores the event, queues its delivery and lists it for its owner only", async () => {
    const { eventId, streamToken } = await sendTestEvent(ctx, alice, {
      webhookId: hook,
      payload: { event: "order.created" },
    });
    expect(streamToken).not.toBe("");
    expect(await statusOf(eventId)).toBe("pending");
    expect((await jobOf(eventId))?.data.eventId).toBe(eventId);

    const { event } = await getEvent(ctx, alice, { id: eventId });
    expect(event.eventType).toBe("order.created");
    expect(event.headers["user-agent"]).toBe("Hookflow-Test");
    const page = await listEvents(ctx, alice, { webhookId: hook, page: 1, limit: 10 });
    expect(page.rows.map((row) => row.id)).toContain(eventId);

    await expect(getEvent(ctx, bob, { id: eventId })).rejects.toThrow(ForbiddenError);
    await expect(listEvents(ctx, bob, { webhookId: hook, page: 1, limit: 10 })).rejects.toThrow(
      ForbiddenError,
    );
    expect((await listEvents(ctx, bob, { page: 1, limit: 10 })).total).toBe(0);
  });

  it("sendTestEvent refuses another owner's webhook, an unknown one and a key without the scope", async () => {
    await expect(sendTestEvent(ctx, bob, { webhookId: hook })).rejects.toThrow(ForbiddenError);
    await expect(sendTestEvent(ctx, alice, { webhookId: "wh_missing" })).rejects.toThrow(
      NotFoundError,
    );
    const reader = actorOf(alice.userId, ["events:read"]);
    await expect(sendTestEvent(ctx, reader, { webhookId: hook })).rejects.toThrow(ForbiddenError);
  });

  it("sendTestEvent stores but does not queue an inactive webhook's event", async () => {
    const { eventId } = await sendTestEvent(ctx, alice, { webhookId: inactiveHook });
    expect(await statusOf(eventId)).toBe("pending");
    expect(await jobOf(eventId)).toBeUndefined();
  });

  it("cancelEvent removes the job; replayEvent reopens and queues the event again", async () => {
    const { eventId } = await sendTestEvent(ctx, alice, { webhookId: hook });
    await expect(replayEvent(ctx, alice, { eventId })).rejects.toThrow(ConflictError);
    await expect(cancelEvent(ctx, bob, { eventId })).rejects.toThrow(ForbiddenError);

    await cancelEvent(ctx, alice, { eventId });
    expect(await statusOf(eventId)).toBe("cancelled");
    expect(await jobOf(eventId)).toBeUndefined();
    await expect(cancelEvent(ctx, alice, { eventId })).rejects.toThrow(ConflictError);

    await replayEvent(ctx, alice, { eventId });
    expect(await statusOf(eventId)).toBe("pending");
    expect((await jobOf(eventId))?.data.eventId).toBe(eventId);
  });

  it("replayAllFailed reopens and queues every failed event of the webhook, in batches", async () => {
    const webhookId = (
      await insertWebhookFixture(database.db, {
        name: "replayed",
        targetUrl: "http://127.0.0.1:9/hook",
        ownerId: alice.userId,
      })
    ).row.id;
    const failed = [
      await insertEvent(webhookId, "failed"),
      await insertEvent(webhookId, "failed"),
      await insertEvent(webhookId, "failed"),
    ];
    const delivered = await insertEvent(webhookId, "delivered");
    await expect(replayAllFailed(ctx, bob, { webhookId })).rejects.toThrow(ForbiddenError);

    expect(await replayAllFailed(ctx, alice, { webhookId })).toEqual({ queued: 3 });
    for (const id of failed) {
      expect(await statusOf(id)).toBe("pending");
      expect((await jobOf(id))?.data.eventId).toBe(id);
    }
    expect(await statusOf(delivered)).toBe("delivered");
    expect(await eventStats(ctx, alice, { webhookId })).toEqual({
      total: 4,
      delivered: 1,
      failed: 0,
      successRate: 25,
    });
  });
});
