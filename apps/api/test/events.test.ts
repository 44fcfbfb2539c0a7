import { createHmac } from "node:crypto";
import { deliveryAttempts, type EventStatus, events } from "@hookflow/db";
import {
  INCOMING_SIGNATURE_HEADERS,
  newId,
  verifyIncomingSignature,
  verifyStreamToken,
} from "@hookflow/domain";
import { type DeliveryQueues, deliveryQueueName, enqueueDeliveries } from "@hookflow/queue";
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { createApiKeyFor, createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { insertWebhookRow as insertWebhook } from "./nodes-fixtures.js";

type Db = ApiHarness["database"]["db"];

async function insertEvent(
  db: Db,
  webhookId: string,
  values: Partial<typeof events.$inferInsert> & { payload?: unknown } = {},
): Promise<string> {
  const id = newId("event");
  const { payload, ...rest } = values;
  await db.insert(events).values({
    id,
    webhookId,
    body: JSON.stringify(payload ?? { type: rest.eventType ?? null, id }),
    headers: { "content-type": "application/json" },
    ...rest,
  });
  return id;
}

async function insertAttempt(
  db: Db,
  eventId: string,
  webhookId: string,
  values: Partial<typeof deliveryAttempts.$inferInsert> = {},
): Promise<string> {
  const id = newId("attempt");
  await db.insert(deliveryAttempts).values({
    id,
    eventId,
    webhookId,
    targetUrl: "http://127.0.0.1:9/hook",
    attempt: 1,
    success: true,
    ...values,
  });
  return id;
}

async function eventRow(db: Db, id: string) {
  const row = await db.query.events.findFirst({ where: (t, { eq }) => eq(t.id, id) });
  if (!row) throw new Error(`no event ${id}`);
  return row;
}

function lane(queues: DeliveryQueues, priority: number) {
  const queue = [...queues.values()].find((q) => q.name === deliveryQueueName(priority));
  if (!queue) throw new Error(`no lane for priority ${priority}`);
  return queue;
}

const day = (d: number, hour = 10) => new Date(Date.UTC(2024, 0, d, hour));

describe("events api", () => {
  let api: ApiHarness;
  let db: Db;
  let alice: { userId: string; token: string };
  let bob: { userId: string; token: string };
  let orgId: string;
  let w1: string;
  let w2: string;
  let orgWebhook: string;
  let bobWebhook: string;
  let bobEvent: string;
  let orgEvent: string;
  /** Ids of the fixture events by name (e1..e6 on w1, w2a and w2b on w2). */
  const e = {} as Record<"e1" | "e2" | "e3" | "e4" | "e5" | "e6" | "w2a" | "w2b", string>;

  beforeAll(async () => {
    api = await startApi();
    db = api.database.db;
    alice = await createUserWithSession(db);
    bob = await createUserWithSession(db);
    orgId = await createOrganizationWith(db, [{ userId: alice.userId, role: "owner" }]);
    w1 = await insertWebhook(db, alice.userId);
    w2 = await insertWebhook(db, alice.userId);
    orgWebhook = await insertWebhook(db, alice.userId, { organizationId: orgId });
    bobWebhook = await insertWebhook(db, bob.userId);

    const rows: Array<
      ["e1" | "e2" | "e3" | "e4" | "e5" | "e6", EventStatus, string | null, number]
    > = [
      ["e1", "delivered", "order.created", 1],
      ["e2", "failed", "order.created", 2],
      ["e3", "pending", "order.paid", 3],
      ["e4", "retrying", "user.created", 4],
      ["e5", "filtered", null, 5],
      ["e6", "cancelled", "order.paid", 6],
    ];
    for (const [name, status, eventType, d] of rows) {
      e[name] = await insertEvent(db, w1, {
        status,
        eventType,
        createdAt: day(d),
        updatedAt: day(d),
        payload: { type: eventType, name, nested: { n: d } },
      });
    }
    e.w2a = await insertEvent(db, w2, { status: "delivered", eventType: "invoice.sent" });
    e.w2b = await insertEvent(db, w2, { status: "delivered", eventType: "invoice.sent" });
    orgEvent = await insertEvent(db, orgWebhook, { status: "delivered", eventType: "org.thing" });
    bobEvent = await insertEvent(db, bobWebhook, { status: "failed", eventType: "bob.only" });
  });

  afterAll(async () => {
    await api.close();
  });

  describe("GET /api/events", () => {
    it("lists the personal webhooks' events newest first without payload or headers", async () => {
      const res = await api.call("GET", "/api/events", { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(8);
      expect(res.body.page).toBe(1);
      expect(res.body.limit).toBe(15);
      const ids = res.body.data.map((item: { id: string }) => item.id);
      expect(new Set(ids)).toEqual(new Set([...Object.values(e)]));
      expect(ids).not.toContain(orgEvent);
      expect(ids).not.toContain(bobEvent);
      const w1Ids = ids.filter((id: string) => [e.e1, e.e2, e.e3, e.e4, e.e5, e.e6].includes(id));
      expect(w1Ids).toEqual([e.e6, e.e5, e.e4, e.e3, e.e2, e.e1]);
      const first = res.body.data.find((item: { id: string }) => item.id === e.e6);
      expect(first).not.toHaveProperty("payload");
      expect(first).not.toHaveProperty("headers");
      expect(first).toMatchObject({
        id: e.e6,
        _id: e.e6,
        webhookId: w1,
        status: "cancelled",
        eventType: "order.paid",
        createdAt: day(6).toISOString(),
      });
    });

    it("lists the organization's events when acting for it", async () => {
      const res = await api.call("GET", "/api/events", {
        token: alice.token,
        headers: { "x-organization-id": orgId },
      });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(1);
      expect(res.body.data.map((item: { id: string }) => item.id)).toEqual([orgEvent]);
    });

    it("filters by webhook", async () => {
      const res = await api.call("GET", `/api/events?webhookId=${w2}`, { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(2);
      expect(new Set(res.body.data.map((item: { id: string }) => item.id))).toEqual(
        new Set([e.w2a, e.w2b]),
      );
    });

    it.each([
      ["pending", "e3"],
      ["retrying", "e4"],
      ["delivered", "e1"],
      ["failed", "e2"],
      ["filtered", "e5"],
      ["cancelled", "e6"],
    ] as const)("filters by status %s", async (status, name) => {
      const res = await api.call("GET", `/api/events?webhookId=${w1}&status=${status}`, {
        token: alice.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(1);
      expect(res.body.data.map((item: { id: string }) => item.id)).toEqual([e[name]]);
    });

    it("filters by event type", async () => {
      const res = await api.call("GET", "/api/events?eventType=order.paid", { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body.data.map((item: { id: string }) => item.id)).toEqual([e.e6, e.e3]);
    });

    it("filters by an inclusive date range given as dates", async () => {
      const res = await api.call(
        "GET",
        `/api/events?webhookId=${w1}&dateFrom=2024-01-02&dateTo=2024-01-04`,
        { token: alice.token },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.map((item: { id: string }) => item.id)).toEqual([e.e4, e.e3, e.e2]);
    });

    it("includes events exactly at both date-time bounds", async () => {
      const from = encodeURIComponent(day(2).toISOString());
      const to = encodeURIComponent(day(4).toISOString());
      const res = await api.call(
        "GET",
        `/api/events?webhookId=${w1}&dateFrom=${from}&dateTo=${to}`,
        { token: alice.token },
      );
      expect(res.status).toBe(200);
      expect(res.body.data.map((item: { id: string }) => item.id)).toEqual([e.e4, e.e3, e.e2]);
      const narrow = await api.call(
        "GET",
        `/api/events?webhookId=${w1}&dateFrom=${encodeURIComponent("2024-01-02T10:00:00.001Z")}`,
        { token: alice.token },
      );
      expect(narrow.body.data.map((item: { id: string }) => item.id)).toEqual([
        e.e6,
        e.e5,
        e.e4,
        e.e3,
      ]);
    });

    it("combines filters", async () => {
      const res = await api.call(
        "GET",
        `/api/events?webhookId=${w1}&eventType=order.created&status=failed&dateFrom=2024-01-01`,
        { token: alice.token },
      );
      expect(res.body.data.map((item: { id: string }) => item.id)).toEqual([e.e2]);
    });

    it("pages with page and limit", async () => {
      const res = await api.call("GET", `/api/events?webhookId=${w1}&page=2&limit=2`, {
        token: alice.token,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 6, page: 2, limit: 2 });
      expect(res.body.data.map((item: { id: string }) => item.id)).toEqual([e.e4, e.e3]);
      const beyond = await api.call("GET", `/api/events?webhookId=${w1}&page=9&limit=2`, {
        token: alice.token,
      });
      expect(beyond.body).toMatchObject({ data: [], total: 6, page: 9 });
      const max = await api.call("GET", "/api/events?limit=100", { token: alice.token });
      expect(max.status).toBe(200);
      expect(max.body.limit).toBe(100);
    });

    it.each([
      ["limit=101", "limit"],
      ["limit=0", "limit"],
      ["page=0", "page"],
      ["page=abc", "page"],
      ["status=sent", "status"],
      ["dateFrom=yesterday", "dateFrom"],
      ["dateTo=2024-13-45", "dateTo"],
      ["dateFrom=2024-01-05&dateTo=2024-01-04", "dateTo"],
    ])("rejects %s with 400 naming the field", async (query, field) => {
      const res = await api.call("GET", `/api/events?${query}`, { token: alice.token });
      expect(res.status).toBe(400);
      expect(res.body.statusCode).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^${field}: `));
    });

    it("answers 403 for another owner's webhook and 404 for an unknown one", async () => {
      const other = await api.call("GET", `/api/events?webhookId=${bobWebhook}`, {
        token: alice.token,
      });
      expect(other.status).toBe(403);
      const unknown = await api.call("GET", `/api/events?webhookId=${newId("webhook")}`, {
        token: alice.token,
      });
      expect(unknown.status).toBe(404);
    });
  });

  describe("GET /api/events/types", () => {
    it("lists the distinct types of one webhook", async () => {
      const res = await api.call("GET", `/api/events/types?webhookId=${w1}`, {
        token: alice.token,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(["order.created", "order.paid", "user.created"]);
    });

    it("lists the distinct types of every visible webhook without webhookId", async () => {
      const res = await api.call("GET", "/api/events/types", { token: alice.token });
      expect(res.body).toEqual(["invoice.sent", "order.created", "order.paid", "user.created"]);
    });

    it("answers 403 for another owner's webhook", async () => {
      const res = await api.call("GET", `/api/events/types?webhookId=${bobWebhook}`, {
        token: alice.token,
      });
      expect(res.status).toBe(403);
    });
  });

  describe("GET /api/events/:id", () => {
    it("returns the event with its payload and every recorded field", async () => {
      const res = await api.call("GET", `/api/events/${e.e2}`, { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: e.e2,
        _id: e.e2,
        webhookId: w1,
        status: "failed",
        eventType: "order.created",
        payload: { type: "order.created", name: "e2", nested: { n: 2 } },
        headers: { "content-type": "application/json" },
        actionRuns: [],
        sourceIp: null,
        attemptCount: 0,
        lastError: null,
        lastStatusCode: null,
        parkedAt: null,
        awaitingApproval: false,
        awaitingMerge: false,
        delayed: false,
        dedupKey: null,
        parentEventId: null,
        chainStep: null,
        deliveredAt: null,
        createdAt: day(2).toISOString(),
        updatedAt: day(2).toISOString(),
        targets: [],
        chain: null,
      });
    });

    it("returns a non-object payload as stored", async () => {
      const id = await insertEvent(db, w2, { payload: [1, "two", null] });
      const res = await api.call("GET", `/api/events/${id}`, { token: alice.token });
      expect(res.body.payload).toEqual([1, "two", null]);
      await api.database.sql`delete from events where id = ${id}`;
    });

    it("shows a payload nested past the depth limit as its text", async () => {
      const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
      const atLimit = `${"[".repeat(1000)}${"]".repeat(1000)}`;
      const ids = [
        await insertEvent(db, w2, { body: deep }),
        await insertEvent(db, w2, { body: atLimit }),
      ];
      const shown = await api.call("GET", `/api/events/${ids[0]}`, { token: alice.token });
      expect(shown.status).toBe(200);
      expect(shown.body.payload).toBe(deep);
      const parsed = await api.call("GET", `/api/events/${ids[1]}`, { token: alice.token });
      expect(parsed.body.payload).toEqual(JSON.parse(atLimit));
      await api.database.sql`delete from events where id = any(${ids})`;
    });

    it("answers 403 for another owner's event and 404 for an unknown id", async () => {
      expect(
        (await api.call("GET", `/api/events/${bobEvent}`, { token: alice.token })).status,
      ).toBe(403);
      const unknown = await api.call("GET", `/api/events/${newId("event")}`, {
        token: alice.token,
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ statusCode: 404, error: "Not Found" });
    });
  });

  describe("GET /api/events/:eventId/deliveries", () => {
    it("lists the attempts oldest first", async () => {
      const second = await insertAttempt(db, e.e2, w1, {
        attempt: 2,
        statusCode: 500,
        responseBody: "boom",
        latencyMs: 40,
        success: false,
        error: "HTTP 500",
        attemptedAt: new Date(Date.UTC(2024, 0, 2, 10, 5)),
      });
      const first = await insertAttempt(db, e.e2, w1, {
        attempt: 1,
        statusCode: 502,
        latencyMs: 30,
        success: false,
        error: "HTTP 502",
        attemptedAt: new Date(Date.UTC(2024, 0, 2, 10, 1)),
      });
      const extra = await insertAttempt(db, e.e2, w1, {
        attempt: 1,
        targetUrl: "http://127.0.0.1:9/extra",
        isAdditionalTarget: true,
        statusCode: 200,
        responseBody: "ok",
        latencyMs: 12,
        attemptedAt: new Date(Date.UTC(2024, 0, 2, 10, 9)),
      });
      const res = await api.call("GET", `/api/events/${e.e2}/deliveries`, { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body.map((a: { id: string }) => a.id)).toEqual([first, second, extra]);
      expect(res.body[1]).toEqual({
        id: second,
        _id: second,
        targetUrl: "http://127.0.0.1:9/hook",
        isAdditionalTarget: false,
        targetId: null,
        attempt: 2,
        statusCode: 500,
        responseBody: "boom",
        latencyMs: 40,
        success: false,
        error: "HTTP 500",
        attemptedAt: "2024-01-02T10:05:00.000Z",
      });
      expect(res.body[2]).toMatchObject({ isAdditionalTarget: true, success: true, error: null });
    });

    it("needs the deliveries:read scope", async () => {
      const readOnly = await createApiKeyFor(db, alice.userId, { scopes: ["events:read"] });
      const denied = await api.call("GET", `/api/events/${e.e2}/deliveries`, {
        token: readOnly.key,
      });
      expect(denied.status).toBe(403);
      const deliveries = await createApiKeyFor(db, alice.userId, { scopes: ["deliveries:read"] });
      const allowed = await api.call("GET", `/api/events/${e.e2}/deliveries`, {
        token: deliveries.key,
      });
      expect(allowed.status).toBe(200);
      expect(allowed.body).toHaveLength(3);
    });

    it("answers 403 for another owner's event and 404 for an unknown one", async () => {
      const other = await api.call("GET", `/api/events/${bobEvent}/deliveries`, {
        token: alice.token,
      });
      expect(other.status).toBe(403);
      const unknown = await api.call("GET", `/api/events/${newId("event")}/deliveries`, {
        token: alice.token,
      });
      expect(unknown.status).toBe(404);
    });
  });

  describe("GET /api/events/stats", () => {
    it("counts one webhook's events", async () => {
      const res = await api.call("GET", `/api/events/stats?webhookId=${w1}`, {
        token: alice.token,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ total: 6, delivered: 1, failed: 1, successRate: 16.7 });
    });

    it("counts every visible webhook's events without webhookId", async () => {
      const res = await api.call("GET", "/api/events/stats", { token: alice.token });
      expect(res.body).toEqual({ total: 8, delivered: 3, failed: 1, successRate: 37.5 });
    });

    it("answers zeros for a webhook without events", async () => {
      const empty = await insertWebhook(db, alice.userId);
      const res = await api.call("GET", `/api/events/stats?webhookId=${empty}`, {
        token: alice.token,
      });
      expect(res.body).toEqual({ total: 0, delivered: 0, failed: 0, successRate: 0 });
      await api.database.sql`delete from webhooks where id = ${empty}`;
    });

    it("answers 403 for another owner's webhook", async () => {
      const res = await api.call("GET", `/api/events/stats?webhookId=${bobWebhook}`, {
        token: alice.token,
      });
      expect(res.status).toBe(403);
    });
  });

  describe("GET /api/events/latency", () => {
    let user: { userId: string; token: string };
    let fast: string;
    let slow: string;

    beforeAll(async () => {
      user = await createUserWithSession(db);
      fast = await insertWebhook(db, user.userId);
      slow = await insertWebhook(db, user.userId);
      const fastEvent = await insertEvent(db, fast, { status: "delivered" });
      for (let i = 1; i <= 10; i++) {
        await insertAttempt(db, fastEvent, fast, { attempt: i, latencyMs: i * 10 });
      }
      // Failed attempts never count, however slow.
      await insertAttempt(db, fastEvent, fast, { success: false, latencyMs: 9000 });
      const slowEvent = await insertEvent(db, slow, { status: "delivered" });
      await insertAttempt(db, slowEvent, slow, { latencyMs: 1000 });
    });

    it("computes avg, p95 and p99 of one webhook's successful attempts", async () => {
      const res = await api.call("GET", `/api/events/latency?webhookId=${fast}`, {
        token: user.token,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ avg: 55, p95: 95.5, p99: 99.1 });
    });

    it("computes them over every visible webhook without webhookId", async () => {
      const res = await api.call("GET", "/api/events/latency", { token: user.token });
      // 10, 20, ..., 100 and 1000: mean 1550 / 11; p95 at rank 9.5, p99 at rank 9.9 (0-based).
      expect(res.body).toEqual({ avg: 140.9, p95: 550, p99: 910 });
    });

    it("answers zeros when nothing was delivered", async () => {
      const res = await api.call("GET", "/api/events/latency", { token: bob.token });
      expect(res.body).toEqual({ avg: 0, p95: 0, p99: 0 });
    });

    it("answers 403 for another owner's webhook", async () => {
      const res = await api.call("GET", `/api/events/latency?webhookId=${fast}`, {
        token: alice.token,
      });
      expect(res.status).toBe(403);
    });
  });

  describe("replay and cancel", () => {
    let carol: { userId: string; token: string };
    let webhook: string;

    beforeAll(async () => {
      carol = await createUserWithSession(db);
      webhook = await insertWebhook(db, carol.userId, { priority: 2 });
    });

    it("replays a failed event: pending, same id, attempts kept, job in its lane", async () => {
      const id = await insertEvent(db, webhook, {
        status: "failed",
        priority: 2,
        attemptCount: 4,
        lastError: "HTTP 500",
        deliveryBody: '{"transformed":true}',
        deliveryPhase: "fallback",
        phaseAttemptCount: 2,
        payload: { type: "order.created", total: 12 },
      });
      const res = await api.call("POST", `/api/events/${id}/replay`, { token: carol.token });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ ok: true });
      const row = await eventRow(db, id);
      expect(row.status).toBe("pending");
      expect(row.attemptCount).toBe(4);
      expect(row.nextAttemptAt).not.toBeNull();
      expect(row).toMatchObject({
        deliveryBody: null,
        deliveryPhase: "primary",
        phaseAttemptCount: 0,
      });
      const job = await lane(api.services.queues, 2).getJob(id);
      // The job names the event; the worker reads the body from Postgres with the event.
      expect(job?.data).toEqual({ eventId: id, webhookId: webhook });
    });

    it("refuses to replay an event that is still open", async () => {
      const id = await insertEvent(db, webhook, { status: "retrying", priority: 2 });
      const res = await api.call("POST", `/api/events/${id}/replay`, { token: carol.token });
      expect(res.status).toBe(409);
      expect((await eventRow(db, id)).status).toBe("retrying");
    });

    it("replaces a finished job left behind under the event's id", async () => {
      const id = await insertEvent(db, webhook, { status: "delivered", priority: 2 });
      const queue = lane(api.services.queues, 2);
      await queue.add(
        "deliver",
        { eventId: id, webhookId: webhook },
        {
          jobId: id,
          removeOnComplete: false,
        },
      );
      const connection = new Redis(api.services.config.redisUrl, { maxRetriesPerRequest: null });
      const worker = new Worker(deliveryQueueName(2), async () => "done", {
        connection,
        prefix: api.services.config.redisPrefix,
      });
      try {
        const done = new Promise<void>((resolve) =>
          worker.on("completed", (job) => {
            if (job.id === id) resolve();
          }),
        );
        await done;
      } finally {
        await worker.close();
        connection.disconnect();
      }
      expect(await queue.getJobState(id)).toBe("completed");
      const res = await api.call("POST", `/api/events/${id}/replay`, { token: carol.token });
      expect(res.status).toBe(202);
      expect(await queue.getJobState(id)).toBe("waiting");
      // The job names the event only; the worker reads the body with the event.
      expect((await queue.getJob(id))?.data).toEqual({
        eventId: id,
        webhookId: expect.any(String),
      });
    });

    it("replays every failed event of a webhook and reports how many", async () => {
      const target = await insertWebhook(db, carol.userId, { priority: 4 });
      const failed = [];
      for (let i = 0; i < 3; i++) {
        failed.push(await insertEvent(db, target, { status: "failed", priority: 4 }));
      }
      const delivered = await insertEvent(db, target, { status: "delivered", priority: 4 });
      const filtered = await insertEvent(db, target, { status: "filtered", priority: 4 });
      const res = await api.call("POST", `/api/events/replay-all?webhookId=${target}`, {
        token: carol.token,
      });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ queued: 3 });
      const queue = lane(api.services.queues, 4);
      for (const id of failed) {
        expect((await eventRow(db, id)).status).toBe("pending");
        expect(await queue.getJob(id)).toBeDefined();
      }
      expect((await eventRow(db, delivered)).status).toBe("delivered");
      expect((await eventRow(db, filtered)).status).toBe("filtered");
      expect(await queue.getJob(delivered)).toBeUndefined();
      const again = await api.call("POST", `/api/events/replay-all?webhookId=${target}`, {
        token: carol.token,
      });
      expect(again.body).toEqual({ queued: 0 });
    });

    it("requires webhookId for replay-all and checks its owner", async () => {
      const missing = await api.call("POST", "/api/events/replay-all", { token: carol.token });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toMatch(/^webhookId: /);
      const other = await api.call("POST", `/api/events/replay-all?webhookId=${bobWebhook}`, {
        token: carol.token,
      });
      expect(other.status).toBe(403);
      expect((await eventRow(db, bobEvent)).status).toBe("failed");
    });

    it("cancels a pending event and removes its queued job", async () => {
      const id = await insertEvent(db, webhook, { status: "pending", priority: 2 });
      await enqueueDeliveries(api.services.queues, [
        { priority: 2, data: { eventId: id, webhookId: webhook }, delayMs: 60_000 },
      ]);
      const queue = lane(api.services.queues, 2);
      expect(await queue.getJob(id)).toBeDefined();
      const res = await api.call("POST", `/api/events/${id}/cancel`, { token: carol.token });
      expect(res.status).toBe(204);
      expect(res.body).toBeNull();
      expect((await eventRow(db, id)).status).toBe("cancelled");
      expect(await queue.getJob(id)).toBeUndefined();
    });

    it("cancels a retrying event, and a cancelled event can be replayed", async () => {
      const id = await insertEvent(db, webhook, { status: "retrying", priority: 2 });
      expect(
        (await api.call("POST", `/api/events/${id}/cancel`, { token: carol.token })).status,
      ).toBe(204);
      const twice = await api.call("POST", `/api/events/${id}/cancel`, { token: carol.token });
      expect(twice.status).toBe(409);
      const replay = await api.call("POST", `/api/events/${id}/replay`, { token: carol.token });
      expect(replay.status).toBe(202);
      expect((await eventRow(db, id)).status).toBe("pending");
    });

    it.each(["delivered", "failed", "filtered"] as const)(
      "refuses to cancel a %s event with 409",
      async (status) => {
        const id = await insertEvent(db, webhook, { status, priority: 2 });
        const res = await api.call("POST", `/api/events/${id}/cancel`, { token: carol.token });
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ statusCode: 409, error: "Conflict" });
        expect((await eventRow(db, id)).status).toBe(status);
      },
    );

    it("answers 403 for another owner's event and 404 for an unknown one", async () => {
      for (const action of ["replay", "cancel"]) {
        const other = await api.call("POST", `/api/events/${bobEvent}/${action}`, {
          token: carol.token,
        });
        expect(other.status).toBe(403);
        const unknown = await api.call("POST", `/api/events/${newId("event")}/${action}`, {
          token: carol.token,
        });
        expect(unknown.status).toBe(404);
      }
      expect((await eventRow(db, bobEvent)).status).toBe("failed");
    });
  });

  describe("POST /api/webhooks/:id/test", () => {
    let dave: { userId: string; token: string };

    beforeAll(async () => {
      dave = await createUserWithSession(db);
    });

    it("creates a pending event with the default payload, queues it and returns a stream token", async () => {
      const webhook = await insertWebhook(db, dave.userId, { priority: 1 });
      const res = await api.call("POST", `/api/webhooks/${webhook}/test`, { token: dave.token });
      expect(res.status).toBe(202);
      const { eventId, streamToken } = res.body;
      expect(eventId).toMatch(/^evt_/);
      expect(
        verifyStreamToken(api.services.config.secret, streamToken, eventId, Date.now()),
      ).toEqual({ ok: true });
      const row = await eventRow(db, eventId);
      expect(row).toMatchObject({ webhookId: webhook, status: "pending", eventType: "test" });
      const payload = JSON.parse(row.body);
      expect(payload).toEqual({
        event: "test",
        message: "Test event from Hookflow",
        timestamp: expect.any(String),
      });
      expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
      const job = await lane(api.services.queues, 1).getJob(eventId);
      expect(job?.data).toEqual({ eventId, webhookId: webhook });
      const fetched = await api.call("GET", `/api/events/${eventId}`, { token: dave.token });
      expect(fetched.body.payload).toEqual(payload);
    });

    it("stores a given payload and reads its event type", async () => {
      const webhook = await insertWebhook(db, dave.userId);
      const res = await api.call("POST", `/api/webhooks/${webhook}/test`, {
        token: dave.token,
        body: { payload: { type: "order.created", id: 7 } },
      });
      expect(res.status).toBe(202);
      const row = await eventRow(db, res.body.eventId);
      expect(JSON.parse(row.body)).toEqual({ type: "order.created", id: 7 });
      expect(row.eventType).toBe("order.created");
      expect(Object.keys(row.headers).some((name) => name.includes("signature"))).toBe(false);
    });

    it.each([
      ["github", "x-hub-signature-256"],
      ["custom", "x-webhook-signature"],
      ["stripe", "stripe-signature"],
    ] as const)(
      "signs a %s test request in memory and never stores or returns a usable signature",
      async (type, header) => {
        const secret = `in-secret-${type}`;
        const webhook = await insertWebhook(db, dave.userId, {
          incomingSignatureType: type,
          incomingSignatureSecret: secret,
        });
        // An attacker's chosen body: a stored valid signature for it would be a forged sender.
        const chosen = { type: "refund.approved", amount: 1_000_000 };
        const res = await api.call("POST", `/api/webhooks/${webhook}/test`, {
          token: dave.token,
          body: { payload: chosen, includeSignature: true },
        });
        expect(res.status).toBe(202);
        expect(Object.keys(res.body).sort()).toEqual(["eventId", "streamToken"]);
        const row = await eventRow(db, res.body.eventId);
        expect(INCOMING_SIGNATURE_HEADERS[type]).toBe(header);
        expect(row.headers[header]).toBe("[redacted]");
        const fetched = await api.call("GET", `/api/events/${res.body.eventId}`, {
          token: dave.token,
        });
        expect(fetched.body.headers[header]).toBe("[redacted]");
        // Neither the stored event nor its answer carries a signature that verifies ...
        for (const headers of [row.headers, fetched.body.headers]) {
          const verdict = verifyIncomingSignature({
            type,
            secret,
            headers: (name) => headers[name.toLowerCase()],
            rawBody: Buffer.from(row.body, "utf8"),
            nowMs: Date.now(),
          });
          expect(verdict.ok).toBe(false);
        }
        // ... nor the MAC itself anywhere.
        const mac = createHmac("sha256", secret).update(row.body).digest("hex");
        expect(JSON.stringify(row)).not.toContain(mac);
        expect(JSON.stringify(fetched.body)).not.toContain(mac);
      },
    );

    it("still refuses includeSignature when the webhook has a type but its secret is missing", async () => {
      const webhook = await insertWebhook(db, dave.userId, { incomingSignatureType: "github" });
      const res = await api.call("POST", `/api/webhooks/${webhook}/test`, {
        token: dave.token,
        body: { includeSignature: true },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^includeSignature: /);
    });

    it("adds no signature without includeSignature or without a signature type", async () => {
      const signed = await insertWebhook(db, dave.userId, {
        incomingSignatureType: "github",
        incomingSignatureSecret: "s",
      });
      const plain = await insertWebhook(db, dave.userId);
      const a = await api.call("POST", `/api/webhooks/${signed}/test`, {
        token: dave.token,
        body: { includeSignature: false },
      });
      const b = await api.call("POST", `/api/webhooks/${plain}/test`, {
        token: dave.token,
        body: { includeSignature: true },
      });
      expect([a.status, b.status]).toEqual([202, 202]);
      for (const id of [a.body.eventId, b.body.eventId]) {
        const row = await eventRow(db, id);
        expect(Object.keys(row.headers).some((name) => name.includes("signature"))).toBe(false);
      }
    });

    it("stores but does not queue a test event of an inactive webhook", async () => {
      const webhook = await insertWebhook(db, dave.userId, { isActive: false, priority: 3 });
      const res = await api.call("POST", `/api/webhooks/${webhook}/test`, {
        token: dave.token,
        body: {},
      });
      expect(res.status).toBe(202);
      expect((await eventRow(db, res.body.eventId)).status).toBe("pending");
      for (const queue of api.services.queues.values()) {
        expect(await queue.getJob(res.body.eventId)).toBeUndefined();
      }
    });

    it("rejects a non-boolean includeSignature with 400 naming the field", async () => {
      const webhook = await insertWebhook(db, dave.userId);
      const res = await api.call("POST", `/api/webhooks/${webhook}/test`, {
        token: dave.token,
        body: { includeSignature: "yes" },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^includeSignature: /);
    });

    it("answers 403 for another owner's webhook and 404 for an unknown one", async () => {
      const other = await api.call("POST", `/api/webhooks/${bobWebhook}/test`, {
        token: dave.token,
        body: {},
      });
      expect(other.status).toBe(403);
      const unknown = await api.call("POST", `/api/webhooks/${newId("webhook")}/test`, {
        token: dave.token,
        body: {},
      });
      expect(unknown.status).toBe(404);
    });
  });

  describe("scopes and authentication", () => {
    it("lets an events:read key read but not replay, replay-all, cancel or test", async () => {
      const { key } = await createApiKeyFor(db, alice.userId, { scopes: ["events:read"] });
      expect((await api.call("GET", "/api/events", { token: key })).status).toBe(200);
      expect((await api.call("GET", `/api/events/${e.e1}`, { token: key })).status).toBe(200);
      expect((await api.call("GET", "/api/events/stats", { token: key })).status).toBe(200);
      for (const [method, path] of [
        ["POST", `/api/events/${e.e2}/replay`],
        ["POST", `/api/events/replay-all?webhookId=${w1}`],
        ["POST", `/api/events/${e.e3}/cancel`],
        ["POST", `/api/webhooks/${w1}/test`],
      ] as const) {
        const res = await api.call(method, path, { token: key });
        expect(res.status).toBe(403);
      }
      expect((await eventRow(db, e.e2)).status).toBe("failed");
      expect((await eventRow(db, e.e3)).status).toBe("pending");
    });

    it("keeps an events:write key out of the read routes", async () => {
      const { key } = await createApiKeyFor(db, alice.userId, { scopes: ["events:write"] });
      for (const path of [
        "/api/events",
        "/api/events/types",
        "/api/events/stats",
        "/api/events/latency",
        `/api/events/${e.e1}`,
        `/api/events/${e.e1}/deliveries`,
      ]) {
        expect((await api.call("GET", path, { token: key })).status).toBe(403);
      }
    });

    it("scopes an organization key to its organization's events", async () => {
      const { key } = await createApiKeyFor(db, alice.userId, {
        scopes: ["events:read"],
        organizationId: orgId,
      });
      const list = await api.call("GET", "/api/events", { token: key });
      expect(list.body.data.map((item: { id: string }) => item.id)).toEqual([orgEvent]);
      expect((await api.call("GET", `/api/events/${e.e1}`, { token: key })).status).toBe(403);
    });

    it("documents every events route in the OpenAPI document", async () => {
      const res = await api.call("GET", "/api/openapi.json");
      expect(res.status).toBe(200);
      const paths = res.body.paths;
      expect(Object.keys(paths)).toEqual(
        expect.arrayContaining([
          "/api/events",
          "/api/events/types",
          "/api/events/stats",
          "/api/events/latency",
          "/api/events/replay-all",
          "/api/events/{id}",
          "/api/events/{eventId}/deliveries",
          "/api/events/{eventId}/replay",
          "/api/events/{eventId}/cancel",
          "/api/webhooks/{id}/test",
        ]),
      );
      expect(paths["/api/events/{eventId}/cancel"].post.responses).toHaveProperty("204");
    });

    it("answers 401 without a credential", async () => {
      for (const [method, path] of [
        ["GET", "/api/events"],
        ["GET", "/api/events/types"],
        ["GET", "/api/events/stats"],
        ["GET", "/api/events/latency"],
        ["GET", `/api/events/${e.e1}`],
        ["GET", `/api/events/${e.e1}/deliveries`],
        ["POST", `/api/events/${e.e2}/replay`],
        ["POST", `/api/events/replay-all?webhookId=${w1}`],
        ["POST", `/api/events/${e.e3}/cancel`],
        ["POST", `/api/webhooks/${w1}/test`],
      ] as const) {
        const res = await api.call(method, path);
        expect(res.status).toBe(401);
      }
    });
  });
});
