import { ConflictError, ForbiddenError, NotFoundError } from "@hookflow/domain";
import type { TestDatabase } from "@hookflow/testing";
import {
  type Actor,
  cancelEvent,
  eventStats,
  getEvent,
  listEvents,
  replayAllFailed,
  replayEvent,
  sendTestEvent,
  type TestEventContext,
} from "../src/index.js";
import {
  eventStatus,
  findDeliveryJob,
  insertTestEvent,
  insertTestWebhook,
  insertTwoActors,
} from "./fixtures.js";
import { actorOf, createTestContext, type TestContext } from "./service-context.js";

const SECRET = "services-test-secret-services-test-secret";

describe("events verbs", () => {
  let database: TestDatabase;
  let ctx: TestContext<Pick<TestEventContext, "config"> & { replayAllBatchSize: number }>;
  let alice: Actor;
  let bob: Actor;
  let hook: string;
  let inactiveHook: string;

  const insertEvent = (webhookId: string, status: "pending" | "failed" | "delivered") =>
    insertTestEvent(database.db, webhookId, status);
  const statusOf = (id: string) => eventStatus(database.db, id);
  const jobOf = (eventId: string) => findDeliveryJob(ctx, eventId);

  beforeAll(async () => {
    ctx = await createTestContext({
      config: { maxPayloadBytes: 1024, secret: SECRET },
      replayAllBatchSize: 2,
    });
    database = ctx.database;
    ({ alice, bob } = await insertTwoActors(database.db));
    hook = await insertTestWebhook(database.db, alice.userId);
    inactiveHook = await insertTestWebhook(database.db, alice.userId, { isActive: false });
  });
  afterAll(async () => {
    await ctx.close();
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
    const reader = actorOf(alice.userId, { scopes: ["events:read"] });
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
    const webhookId = await insertTestWebhook(database.db, alice.userId, { name: "replayed" });
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
