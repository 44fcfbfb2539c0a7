import { createHash } from "node:crypto";
import { once } from "node:events";
import { loadConfig } from "@hookflow/config";
import {
  type IncomingSignatureType,
  sealIngressToken,
  signIncomingForTest,
  verifyStreamToken,
} from "@hookflow/domain";
import { createLogger } from "@hookflow/observability";
import {
  createTestDatabase,
  createTestRedisPrefix,
  TEST_ENCRYPTION_KEY,
  testKeyRing,
  waitUntil,
} from "@hookflow/testing";
import { createIngressApp } from "../src/app.js";
import { buildIngressServices } from "../src/services.js";
import {
  type IngressHarness,
  insertOwner,
  insertWebhook,
  startIngress,
  TEST_SECRET,
} from "./harness.js";

const MAX_BYTES = 2048;

describe("ingress", () => {
  let h: IngressHarness;
  const enqueueFailures = async () => {
    const metric = await h.services.ingressMetrics.enqueueFailed.get();
    return metric.values.reduce((sum, value) => sum + value.value, 0);
  };
  beforeAll(async () => {
    h = await startIngress({ MAX_PAYLOAD_BYTES: String(MAX_BYTES) });
  });
  afterAll(async () => {
    await h.close();
  });

  describe("accepting events", () => {
    it("answers 202 with an event id and a stream token once the event is stored, then queues it in its lane", async () => {
      const hook = await h.createWebhook({ priority: 2 });
      const body = '{"type":"order.created",  "items": [ 1, 2 ],"note":"héllo"}\n';
      const res = await h.post(hook.token, body, { "x-custom": "kept" });

      expect(res.status).toBe(202);
      expect(Object.keys(res.body).sort()).toEqual(["eventId", "streamToken"]);
      expect(res.body.eventId).toMatch(/^evt_/);
      expect(
        verifyStreamToken(TEST_SECRET, res.body.streamToken, res.body.eventId, Date.now()),
      ).toEqual({
        ok: true,
      });

      const [row, ...rest] = await h.eventRows(hook.id);
      expect(rest).toHaveLength(0);
      expect(row.id).toBe(res.body.eventId);
      expect(row.status).toBe("pending");
      expect(row.body).toBe(body);
      expect(row.event_type).toBe("order.created");
      expect(row.priority).toBe(2);
      expect(row.headers["x-custom"]).toBe("kept");
      expect(row.next_attempt_at).not.toBeNull();

      const job = await h.jobOf(2, res.body.eventId);
      // The job names the event; its body is in the row, read by the worker with the event.
      expect(job?.data).toEqual({ eventId: res.body.eventId, webhookId: hook.id });
      expect(await h.jobOf(3, res.body.eventId)).toBeUndefined();
    });

    it("accepts every JSON value, scalars and arrays included, and stores the exact text", async () => {
      const hook = await h.createWebhook();
      const bodies = ["42", '"just a string"', "null", "true", '[1, {"a": 2}]', " {} "];
      for (const body of bodies) {
        const res = await h.post(hook.token, body);
        expect(res.status).toBe(202);
      }
      const rows = await h.eventRows(hook.id);
      expect(rows.map((row) => row.body).sort()).toEqual([...bodies].sort());
    });

    it("stores objects and arrays exactly as sent: spacing, escapes, key order, duplicates", async () => {
      const hook = await h.createWebhook();
      const bodies = [
        '{ "b" : 2 ,"a":[1, 2.50, -0.0e+5],\n"a":"dup" }',
        '{"s":"quote \\" slash \\/ tab \\t newline \\n","u":"\\u00e9\\ud83d\\ude00","e":"é😀"}',
        '[{"nested":{"deep":[[[]]]}},{}]',
        "[\t1,\r\n2 ]",
      ];
      const answers = await Promise.all(bodies.map((body) => h.post(hook.token, body)));
      expect(answers.map((res) => res.status)).toEqual(bodies.map(() => 202));
      const rows = await h.eventRows(hook.id);
      for (const [index, res] of answers.entries()) {
        expect(rows.find((row) => row.id === res.body.eventId)?.body).toBe(bodies[index]);
      }
    });

    it("stores text Postgres cannot hold as text without failing the batch it shares with others", async () => {
      const hook = await h.createWebhook();
      // JSON may spell U+0000 as an escape; Postgres text cannot store the character itself.
      const odd = '{"type":"order\\u0000created","note":"\\u0000"}';
      const plain = '{"type":"order.created"}';
      const [first, second] = await Promise.all([
        h.post(hook.token, odd),
        h.post(hook.token, plain),
      ]);
      expect([first.status, second.status]).toEqual([202, 202]);
      const rows = await h.eventRows(hook.id);
      const stored = rows.find((row) => row.id === first.body.eventId);
      expect(stored.body).toBe(odd);
      expect(stored.event_type).toBe("ordercreated");
    });

    it("does not need a content type", async () => {
      const hook = await h.createWebhook();
      const res = await h.post(hook.token, '{"a":1}', { "content-type": "text/plain" });
      expect(res.status).toBe(202);
    });

    it("stores headers without credentials or signatures", async () => {
      const hook = await h.createWebhook();
      const res = await h.post(hook.token, "{}", {
        authorization: "Bearer secret",
        cookie: "session=1",
        "x-webhook-signature": "sha256=00",
        "stripe-signature": "t=1,v1=00",
        "x-trace": "abc",
      });
      expect(res.status).toBe(202);
      const [row] = await h.eventRows(hook.id);
      expect(row.headers).toEqual(expect.objectContaining({ "x-trace": "abc" }));
      for (const name of ["authorization", "cookie", "x-webhook-signature", "stripe-signature"]) {
        expect(row.headers).not.toHaveProperty(name);
      }
    });

    it("does not take a sender's own X-Forwarded-For as its source ip (see source-ip.test.ts)", async () => {
      const hook = await h.createWebhook();
      await h.post(hook.token, "{}", { "x-forwarded-for": "203.0.113.9, 10.0.0.1" });
      const [row] = await h.eventRows(hook.id);
      // In-process requests have no socket, hence no peer and no address.
      expect(row.source_ip).toBeNull();
    });

    it("answers 202 for a stored event whose enqueue then fails, leaving it pending for the sweeper", async () => {
      const hook = await h.createWebhook({ priority: 4 });
      const lane = h.services.queues.get(4);
      const meta = lane?.keys.meta;
      if (!meta) throw new Error("no lane 4");
      // Redis stays up, but lane 4's enqueue script fails: its meta hash is a string.
      await h.redis.set(meta, "not a hash");
      try {
        const before = await enqueueFailures();
        const res = await h.post(hook.token, '{"lost":"job"}');
        expect(res.status).toBe(202);
        await h.services.batcher.drain();
        const rows = await h.eventRows(hook.id);
        expect(rows.map((row) => [row.id, row.status])).toEqual([[res.body.eventId, "pending"]]);
        // No job: the worker's sweeper queues pending events without one (its own tests).
        expect(await h.jobOf(4, res.body.eventId)).toBeUndefined();
        expect((await enqueueFailures()) - before).toBe(1);
      } finally {
        await h.redis.del(meta);
      }
      const next = await h.post(hook.token, '{"lost":"nothing"}');
      expect(await h.jobOf(4, next.body.eventId)).toBeDefined();
    });

    it("stores the event of an inactive webhook as pending without queueing it", async () => {
      const hook = await h.createWebhook({ isActive: false, priority: 1 });
      const res = await h.post(hook.token, '{"a":1}');
      expect(res.status).toBe(202);
      const rows = await h.eventRows(hook.id);
      expect(rows.map((row) => [row.id, row.status])).toEqual([[res.body.eventId, "pending"]]);
      for (const lane of [1, 2, 3, 4, 5] as const) {
        expect(await h.jobOf(lane, res.body.eventId)).toBeUndefined();
      }
    });

    it("stores 100 concurrent requests, all of them, in fewer insert batches than requests", async () => {
      const hook = await h.createWebhook();
      const before = h.services.batcher.stats();
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, i) => h.post(hook.token, JSON.stringify({ i }))),
      );
      const after = h.services.batcher.stats();
      expect(responses.map((r) => r.status)).toEqual(Array(100).fill(202));
      const rows = await h.eventRows(hook.id);
      expect(rows).toHaveLength(100);
      expect(new Set(rows.map((row) => row.id))).toEqual(
        new Set(responses.map((r) => r.body.eventId)),
      );
      expect(after.items - before.items).toBe(100);
      expect(after.batches - before.batches).toBeLessThan(100);
      for (const r of responses.slice(0, 5)) expect(await h.jobOf(3, r.body.eventId)).toBeDefined();
    });
  });

  describe("refusing requests", () => {
    it("answers 404 for an unknown token", async () => {
      const res = await h.post("no-such-token-at-all", "{}");
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        statusCode: 404,
        message: "Webhook not found for this ingress token",
        error: "Not Found",
      });
    });

    it("answers 413 for a body over the limit declared by content-length", async () => {
      const hook = await h.createWebhook();
      const res = await h.post(hook.token, JSON.stringify({ pad: "x".repeat(MAX_BYTES) }));
      expect(res.status).toBe(413);
      expect(res.body.error).toBe("Payload Too Large");
      expect(await h.eventRows(hook.id)).toHaveLength(0);
    });

    it("answers 413 for a streamed body without content-length once it passes the limit", async () => {
      const hook = await h.createWebhook();
      const chunk = new TextEncoder().encode("x".repeat(1000));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode('"'));
          if (sent >= 5) {
            controller.enqueue(new TextEncoder().encode('"'));
            controller.close();
            return;
          }
          sent += 1;
          controller.enqueue(chunk);
        },
      });
      const res = await h.post(hook.token, stream);
      expect(res.status).toBe(413);
      expect(await h.eventRows(hook.id)).toHaveLength(0);
    });

    it("accepts a body exactly at the limit", async () => {
      const hook = await h.createWebhook();
      const body = `"${"y".repeat(MAX_BYTES - 2)}"`;
      expect(Buffer.byteLength(body)).toBe(MAX_BYTES);
      expect((await h.post(hook.token, body)).status).toBe(202);
    });

    it.each([
      ["malformed JSON", "{not json", "body: Invalid JSON"],
      ["an empty body", "", "body: Invalid JSON"],
      ["invalid UTF-8", new Uint8Array([0x22, 0xff, 0xfe, 0x22]), "body: Invalid UTF-8"],
    ])("answers 400 for %s", async (_name, body, message) => {
      const hook = await h.createWebhook();
      const res = await h.post(hook.token, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message, error: "Bad Request" });
      expect(await h.eventRows(hook.id)).toHaveLength(0);
    });
  });

  describe("incoming signatures", () => {
    const secret = "incoming-secret-123";
    const body = '{"type":"charge.succeeded","id":1}';
    const types: IncomingSignatureType[] = ["custom", "github", "stripe"];

    it.each(types)("accepts a valid %s signature", async (type) => {
      const hook = await h.createWebhook({
        incomingSignatureType: type,
        incomingSignatureSecret: secret,
      });
      const headers = signIncomingForTest({ type, secret, rawBody: body, nowMs: Date.now() });
      const res = await h.post(hook.token, body, headers);
      expect(res.status).toBe(202);
      expect(await h.eventRows(hook.id)).toHaveLength(1);
    });

    it.each(types)("rejects a %s signature made with another secret with 401", async (type) => {
      const hook = await h.createWebhook({
        incomingSignatureType: type,
        incomingSignatureSecret: secret,
      });
      const headers = signIncomingForTest({
        type,
        secret: "wrong",
        rawBody: body,
        nowMs: Date.now(),
      });
      const res = await h.post(hook.token, body, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        statusCode: 401,
        message: "Invalid signature",
        error: "Unauthorized",
      });
      expect(await h.eventRows(hook.id)).toHaveLength(0);
    });

    it.each(types)("rejects a %s signature over a different body with 401", async (type) => {
      const hook = await h.createWebhook({
        incomingSignatureType: type,
        incomingSignatureSecret: secret,
      });
      const headers = signIncomingForTest({ type, secret, rawBody: `${body} `, nowMs: Date.now() });
      expect((await h.post(hook.token, body, headers)).status).toBe(401);
    });

    it.each(types)("rejects a request without the %s signature header with 401", async (type) => {
      const hook = await h.createWebhook({
        incomingSignatureType: type,
        incomingSignatureSecret: secret,
      });
      const res = await h.post(hook.token, body);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("Missing signature header");
    });

    it("rejects a stripe signature older than 300 seconds with 401", async () => {
      const hook = await h.createWebhook({
        incomingSignatureType: "stripe",
        incomingSignatureSecret: secret,
      });
      const headers = signIncomingForTest({
        type: "stripe",
        secret,
        rawBody: body,
        nowMs: Date.now() - 301_000,
      });
      const res = await h.post(hook.token, body, headers);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("Signature timestamp is too old");
    });
  });

  describe("deduplication", () => {
    it("answers a repeated Idempotency-Key with the original event id and stores it once", async () => {
      const hook = await h.createWebhook({ dedupEnabled: true });
      const first = await h.post(hook.token, '{"n":1}', { "Idempotency-Key": "abc-1" });
      const second = await h.post(hook.token, '{"n":2}', { "Idempotency-Key": "abc-1" });
      expect(first.status).toBe(202);
      expect(second.status).toBe(200);
      expect(second.body).toEqual({
        eventId: first.body.eventId,
        deduplicated: true,
        originalEventId: first.body.eventId,
      });
      const rows = await h.eventRows(hook.id);
      expect(rows.map((row) => [row.id, row.dedup_key])).toEqual([[first.body.eventId, "abc-1"]]);
    });

    it("uses webhook-id, then X-GitHub-Delivery, then the body hash as the key", async () => {
      const hook = await h.createWebhook({ dedupEnabled: true });
      const a = await h.post(hook.token, '{"a":1}', {
        "webhook-id": "msg_1",
        "x-github-delivery": "g1",
      });
      const b = await h.post(hook.token, '{"a":2}', { "webhook-id": "msg_1" });
      const c = await h.post(hook.token, '{"a":3}', { "x-github-delivery": "g1" });
      const d = await h.post(hook.token, '{"same":true}');
      const e = await h.post(hook.token, '{"same":true}');
      expect([a.status, b.status, c.status, d.status, e.status]).toEqual([202, 200, 202, 202, 200]);
      expect(b.body.originalEventId).toBe(a.body.eventId);
      expect(e.body.originalEventId).toBe(d.body.eventId);
      const rows = await h.eventRows(hook.id);
      expect(rows.map((row) => row.dedup_key)).toEqual([
        "msg_1",
        "g1",
        `body-sha256:${createHash("sha256").update('{"same":true}').digest("hex")}`,
      ]);
    });

    it("stores exactly one event for 20 concurrent identical requests", async () => {
      const hook = await h.createWebhook({ dedupEnabled: true });
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          h.post(hook.token, '{"burst":1}', { "Idempotency-Key": "burst" }),
        ),
      );
      const accepted = responses.filter((r) => r.status === 202);
      expect(accepted).toHaveLength(1);
      const original = accepted[0]?.body.eventId;
      for (const r of responses.filter((x) => x.status !== 202)) {
        expect(r.status).toBe(200);
        expect(r.body.originalEventId).toBe(original);
      }
      const rows = await h.eventRows(hook.id);
      expect(rows.map((row) => row.id)).toEqual([original]);
    });

    it("never answers a repeat with an event that is not stored: a pending claim gets 409", async () => {
      const hook = await h.createWebhook({ dedupEnabled: true });
      // What a replica that crashed between its claim and its store leaves behind.
      const key = h.services.keys.dedup(hook.id, "crashed-1");
      await h.redis.set(key, "pending:evt_never_stored", "PX", 2500);
      const blocked = await h.post(hook.token, '{"n":1}', { "Idempotency-Key": "crashed-1" });
      expect(blocked.status).toBe(409);
      expect(blocked.headers.get("retry-after")).toBe("1");
      expect(blocked.body).toEqual({
        statusCode: 409,
        message: "A request with the same deduplication key is still being stored; retry shortly",
        error: "Conflict",
      });
      // Once the claim runs out the sender's retry is stored, and only then repeats are answered.
      const stored = await waitUntil(async () => {
        const res = await h.post(hook.token, '{"n":1}', { "Idempotency-Key": "crashed-1" });
        if (res.status === 200) throw new Error(`answered a repeat: ${JSON.stringify(res.body)}`);
        return res.status === 202 ? res : undefined;
      });
      const repeat = await h.post(hook.token, '{"n":1}', { "Idempotency-Key": "crashed-1" });
      expect(repeat.body).toMatchObject({
        deduplicated: true,
        originalEventId: stored.body.eventId,
      });
      expect(await h.redis.get(key)).toBe(stored.body.eventId);
      expect((await h.eventRows(hook.id)).map((row) => row.id)).toEqual([stored.body.eventId]);
    });

    it("releases its claim when the store fails", async () => {
      const hook = await h.createWebhook({ dedupEnabled: true });
      const key = h.services.keys.dedup(hook.id, "deleted-1");
      // Cached token, then the webhook is deleted: its event's store fails after the claim.
      expect((await h.post(hook.token, '{"warm":1}')).status).toBe(202);
      await h.database.sql`delete from webhooks where id = ${hook.id}`;
      const gone = await h.post(hook.token, "{}", { "Idempotency-Key": "deleted-1" });
      expect(gone.status).toBe(404);
      expect(await h.redis.get(key)).toBeNull();
    });

    it("stores repeats when deduplication is off", async () => {
      const hook = await h.createWebhook();
      await h.post(hook.token, "{}", { "Idempotency-Key": "k" });
      await h.post(hook.token, "{}", { "Idempotency-Key": "k" });
      expect(await h.eventRows(hook.id)).toHaveLength(2);
    });
  });

  describe("token cache", () => {
    it("stops serving a rotated token as soon as the change is published", async () => {
      const hook = await h.createWebhook();
      expect((await h.post(hook.token, "{}")).status).toBe(202);
      const newToken = `rotated-${hook.token}`;
      const sealed = sealIngressToken(testKeyRing(), hook.id, newToken);
      await h.database.sql`update webhooks set ingress_token = ${sealed.ingressToken},
        token_hash = ${sealed.tokenHash} where id = ${hook.id}`;
      // Until the change is announced the cached lookup is served (that is the cache at work).
      expect((await h.post(hook.token, "{}")).status).toBe(202);

      const seen = once(h.services.changes, "webhook-changed");
      await h.redis.publish(
        h.services.keys.webhookChangedChannel,
        JSON.stringify({ webhookId: hook.id }),
      );
      await seen;
      expect((await h.post(hook.token, "{}")).status).toBe(404);
      expect((await h.post(newToken, "{}")).status).toBe(202);
    });

    it("answers 404 for a webhook deleted after its token was cached, without failing other webhooks' events", async () => {
      const doomed = await h.createWebhook();
      const other = await h.createWebhook();
      expect((await h.post(doomed.token, "{}")).status).toBe(202);
      expect((await h.post(other.token, "{}")).status).toBe(202);
      await h.database.sql`delete from webhooks where id = ${doomed.id}`;
      const [gone, kept] = await Promise.all([
        h.post(doomed.token, '{"late":true}'),
        h.post(other.token, '{"late":true}'),
      ]);
      expect(gone?.status).toBe(404);
      expect(kept?.status).toBe(202);
      expect(await h.eventRows(other.id)).toHaveLength(2);
      expect(await h.jobOf(3, kept?.body.eventId)).toBeDefined();
    });

    it("applies a deactivation as soon as the change is published", async () => {
      const hook = await h.createWebhook();
      expect((await h.post(hook.token, "{}")).status).toBe(202);
      await h.database.sql`update webhooks set is_active = false where id = ${hook.id}`;
      const seen = once(h.services.changes, "webhook-changed");
      await h.redis.publish(
        h.services.keys.webhookChangedChannel,
        JSON.stringify({ webhookId: hook.id }),
      );
      await seen;
      const res = await h.post(hook.token, "{}");
      expect(res.status).toBe(202);
      for (const lane of [1, 2, 3, 4, 5] as const) {
        expect(await h.jobOf(lane, res.body.eventId)).toBeUndefined();
      }
    });
  });

  describe("operations", () => {
    it("answers health with its dependency checks", async () => {
      const res = await h.app.request("/api/health");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: "ok",
        role: "ingress",
        checks: { postgres: true, redis: true },
      });
    });

    it("counts accepts, duplicates, rejects and batch sizes in its metrics", async () => {
      const text = await h.services.metrics.registry.metrics();
      expect(text).toMatch(
        /hookflow_ingress_events_accepted_total\{[^}]*mode="enqueued"[^}]*\} [1-9]/,
      );
      expect(text).toMatch(/hookflow_ingress_events_deduplicated_total\{[^}]*\} [1-9]/);
      expect(text).toMatch(
        /hookflow_ingress_requests_rejected_total\{[^}]*reason="signature"[^}]*\} [1-9]/,
      );
      expect(text).toMatch(/hookflow_ingress_batch_size_count\{[^}]*outcome="stored"[^}]*\} [1-9]/);
    });

    it("keeps its metrics off the public app (they are on the metrics listener)", async () => {
      expect((await h.app.request("/metrics")).status).toBe(404);
    });

    it("answers unknown routes with 404 in the error shape", async () => {
      const res = await h.app.request("/api/nope");
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        statusCode: 404,
        message: "Route GET /api/nope not found",
        error: "Not Found",
      });
    });
  });
});

describe("ingress rate limit", () => {
  let h: IngressHarness;
  beforeAll(async () => {
    h = await startIngress({ INGRESS_RATE_LIMIT_PER_SECOND: "1" });
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers 429 with Retry-After once a token passes its per-second limit", async () => {
    const hook = await h.createWebhook();
    const responses = await Promise.all(Array.from({ length: 5 }, () => h.post(hook.token, "{}")));
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]?.headers.get("retry-after")).toBe("1");
    expect(limited[0]?.body.error).toBe("Too Many Requests");
    const accepted = responses.filter((r) => r.status === 202).length;
    expect(await h.eventRows(hook.id)).toHaveLength(accepted);
  });
});

describe("ingress with a dependency down", () => {
  it("answers 503, never 202, and keeps nothing when Redis is unreachable", async () => {
    const database = await createTestDatabase();
    const services = buildIngressServices({
      config: loadConfig({
        NODE_ENV: "test",
        DATABASE_URL: database.url,
        REDIS_URL: "redis://127.0.0.1:1",
        HOOKFLOW_SECRET: TEST_SECRET,
        HOOKFLOW_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        LOG_LEVEL: "silent",
      }),
      logger: createLogger({ level: "silent", role: "ingress" }),
    });
    try {
      const app = createIngressApp(services);
      const ownerId = await insertOwner(database.db);
      const plain = await insertWebhook(database.db, ownerId);
      const dedup = await insertWebhook(database.db, ownerId, { dedupEnabled: true });
      const responses = await Promise.all([
        app.request(`/api/in/${plain.token}`, { method: "POST", body: '{"a":1}' }),
        app.request(`/api/in/${plain.token}`, { method: "POST", body: '{"a":2}' }),
        app.request(`/api/in/${dedup.token}`, { method: "POST", body: '{"a":3}' }),
      ]);
      expect(responses.map((r) => r.status)).toEqual([503, 503, 503]);
      expect(await responses[0]?.json()).toEqual({
        statusCode: 503,
        message: "Queue unavailable",
        error: "Service Unavailable",
      });
      const [count] = await database.sql`select count(*)::int as n from events`;
      expect(count?.n).toBe(0);
      expect((await app.request("/api/health")).status).toBe(503);
    } finally {
      await services.close();
      await database.destroy();
    }
  });

  /** An ingress whose Postgres is a closed port, on a Redis prefix of its own. */
  function withoutPostgres(logger = createLogger({ level: "silent", role: "ingress" })) {
    const redis = createTestRedisPrefix();
    const services = buildIngressServices({
      config: loadConfig({
        NODE_ENV: "test",
        DATABASE_URL: "postgres://postgres@127.0.0.1:1/hookflow",
        REDIS_URL: redis.url,
        HOOKFLOW_REDIS_PREFIX: redis.prefix,
        HOOKFLOW_SECRET: TEST_SECRET,
        HOOKFLOW_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      }),
      logger,
    });
    return { redis, services };
  }

  it("answers 503, never 202, when Postgres is unreachable", async () => {
    const { redis, services } = withoutPostgres();
    try {
      const app = createIngressApp(services);
      const responses = await Promise.all(
        Array.from({ length: 3 }, () =>
          app.request("/api/in/some-token-value", { method: "POST", body: "{}" }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual([503, 503, 503]);
      expect(await responses[0]?.json()).toEqual({
        statusCode: 503,
        message: "Webhook store unavailable",
        error: "Service Unavailable",
      });
      const health = await app.request("/api/health");
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({
        status: "degraded",
        role: "ingress",
        checks: { postgres: false, redis: true },
      });
    } finally {
      await services.close();
      await redis.destroy();
    }
  });

  it("logs its 503 answers without the ingress token", async () => {
    const lines: string[] = [];
    const { redis, services } = withoutPostgres(
      createLogger({
        level: "debug",
        role: "ingress",
        destination: { write: (line: string) => lines.push(line) },
      }),
    );
    const token = "secret-ingress-token-that-must-not-be-logged";
    try {
      const app = createIngressApp(services);
      const res = await app.request(`/api/in/${token}?token=${token}`, {
        method: "POST",
        body: "{}",
      });
      expect(res.status).toBe(503);
      const logged = lines.join("");
      // The failure is logged, with its cause, and the path in its masked form.
      expect(logged).toContain("Webhook store unavailable");
      expect(logged).toContain("/api/in/:token");
      expect(logged).not.toContain(token);
    } finally {
      await services.close();
      await redis.destroy();
    }
  });
});
