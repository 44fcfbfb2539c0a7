import type { Priority } from "@hookflow/queue";
import { enqueueDeliveries } from "@hookflow/queue";
import { type Receiver, startReceiver, waitUntil } from "@hookflow/testing";
import {
  expectedHookflowSignature,
  expectedStandardSignature,
  startWorkerHarness,
  TEST_SECRET,
  type WorkerHarness,
} from "./harness.js";

let h: WorkerHarness;
let receiver: Receiver;

beforeAll(async () => {
  h = await startWorkerHarness();
  receiver = await startReceiver();
});

afterAll(async () => {
  await h.close();
  await receiver.close();
});

/** Requests of one event at the shared receiver. */
function requestsOf(eventId: string) {
  return receiver.requests.filter((r) => r.headers["x-hookflow-event-id"] === eventId);
}

describe("delivery worker", () => {
  beforeEach(() => {
    receiver.respondWith(() => ({ status: 200, body: '{"ok":true}' }));
  });

  it("delivers the exact stored bytes with verifiable Hookflow and Standard Webhooks signatures", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/hook` });
    const body =
      '{"type":"order.created","amount":12.50,"note":"caf\u00e9 \u2603","nested":{ "a" : [1,2,3] }}';
    const { id } = await h.createEvent(webhook, { body });
    const event = await h.waitForStatus(id, "delivered");
    expect(event.attemptCount).toBe(1);
    expect(event.deliveredAt).not.toBeNull();
    expect(event.lastStatusCode).toBe(200);

    const [request] = requestsOf(id);
    expect(request).toBeDefined();
    if (!request) return;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/hook");
    expect(request.body.equals(Buffer.from(body, "utf8"))).toBe(true);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-hookflow-delivery-attempt"]).toBe("1");
    expect(request.headers["x-hookflow-attempt"]).toBe("1");
    expect(request.headers["x-hookflow-timestamp"]).toMatch(/^\d{10}$/);

    const signature = String(request.headers["x-hookflow-signature"]);
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
    expect(match).not.toBeNull();
    const [, t, v1] = match ?? [];
    expect(v1).toBe(expectedHookflowSignature(TEST_SECRET, String(t), request.body));

    expect(request.headers["webhook-id"]).toBe(id);
    const ts = String(request.headers["webhook-timestamp"]);
    expect(ts).toBe(request.headers["x-hookflow-timestamp"]);
    expect(request.headers["webhook-signature"]).toBe(
      `v1,${expectedStandardSignature(TEST_SECRET, id, ts, request.body)}`,
    );
  });

  it("delivers the stored body for a job that still carries a body of its own (an earlier version's job)", async () => {
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    const stored = await h.createEvent(webhook, { body: '{"stored":true}', enqueue: false });
    // Jobs enqueued before the body left the job data held it inline; one may still be queued.
    const earlierJob = { eventId: stored.id, webhookId: webhook.id, body: '{"inline":true}' };
    await enqueueDeliveries(h.services.queues, [{ priority: webhook.priority, data: earlierJob }]);
    await h.waitForStatus(stored.id, "delivered");
    expect(requestsOf(stored.id).map((r) => r.body.toString())).toEqual(['{"stored":true}']);
  });

  it("stores every attempt with its status code and at most 4 KB of the response", async () => {
    const big = "x".repeat(10_000);
    receiver.respondWith(() => ({ status: 200, body: big }));
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    const { id } = await h.createEvent(webhook);
    await h.waitForStatus(id, "delivered");
    const attempts = await h.attempts(id);
    expect(attempts).toHaveLength(1);
    const [attempt] = attempts;
    expect(attempt?.statusCode).toBe(200);
    expect(attempt?.success).toBe(true);
    expect(attempt?.attempt).toBe(1);
    expect(attempt?.targetUrl).toBe(receiver.url);
    expect(attempt?.isFallback).toBe(false);
    expect(attempt?.responseBody).toBe("x".repeat(4096));
    expect(attempt?.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("retries a failing target and delivers once it recovers", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/flaky`, maxRetries: 3 });
    let calls = 0;
    receiver.respondWith((r) => {
      if (r.path !== "/flaky") return { status: 200 };
      calls += 1;
      return calls <= 2 ? { status: 500, body: "boom" } : { status: 200, body: "fine" };
    });
    const { id } = await h.createEvent(webhook);
    const event = await h.waitForStatus(id, "delivered");
    expect(event.attemptCount).toBe(3);
    const attempts = await h.attempts(id);
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.success])).toEqual([
      [1, 500, false],
      [2, 500, false],
      [3, 200, true],
    ]);
    expect(attempts[0]?.responseBody).toBe("boom");
    expect(attempts[0]?.error).toBe("HTTP 500");
    expect(requestsOf(id).map((r) => r.headers["x-hookflow-delivery-attempt"])).toEqual([
      "1",
      "2",
      "3",
    ]);
  });

  it("fails the event once retries are exhausted", async () => {
    receiver.respondWith(() => ({ status: 502 }));
    const webhook = await h.createWebhook({ targetUrl: receiver.url, maxRetries: 2 });
    const { id } = await h.createEvent(webhook);
    const event = await h.waitForStatus(id, "failed");
    expect(event.attemptCount).toBe(3);
    expect(event.lastStatusCode).toBe(502);
    expect(event.lastError).toBe("HTTP 502");
    expect(event.nextAttemptAt).toBeNull();
    const attempts = await h.attempts(id);
    expect(attempts).toHaveLength(3);
    expect(attempts.every((a) => !a.success && a.statusCode === 502)).toBe(true);
  });

  it("stops after one attempt when the target answers 410 Gone", async () => {
    receiver.respondWith(() => ({ status: 410 }));
    const webhook = await h.createWebhook({ targetUrl: receiver.url, maxRetries: 5 });
    const { id } = await h.createEvent(webhook);
    const event = await h.waitForStatus(id, "failed");
    expect(event.attemptCount).toBe(1);
    expect((await h.attempts(id)).map((a) => a.statusCode)).toEqual([410]);
  });

  it("waits at least the Retry-After of a 429 before the next attempt", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/busy`, maxRetries: 2 });
    let calls = 0;
    receiver.respondWith(() => {
      calls += 1;
      return calls === 1 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 };
    });
    const { id } = await h.createEvent(webhook);
    await h.waitForStatus(id, "delivered");
    const [first, second] = requestsOf(id);
    expect(first && second).toBeTruthy();
    if (!first || !second) return;
    // Backoff alone is 10 s * 0.001 = 10 ms; only Retry-After explains a full second.
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(1000);
    expect((await h.attempts(id)).map((a) => a.statusCode)).toEqual([429, 200]);
  });

  it("sends to the fallback url after the primary's last failure and counts it delivered", async () => {
    receiver.respondWith((r) => (r.path === "/primary" ? { status: 500 } : { status: 200 }));
    const webhook = await h.createWebhook({
      targetUrl: `${receiver.url}/primary`,
      fallbackUrl: `${receiver.url}/fallback`,
      maxRetries: 1,
    });
    const { id } = await h.createEvent(webhook);
    const event = await h.waitForStatus(id, "delivered");
    const attempts = await h.attempts(id);
    expect(attempts.map((a) => [a.attempt, a.targetUrl, a.isFallback, a.success])).toEqual([
      [1, `${receiver.url}/primary`, false, false],
      [2, `${receiver.url}/primary`, false, false],
      [3, `${receiver.url}/fallback`, true, true],
    ]);
    expect(event.attemptCount).toBe(3);
    expect(requestsOf(id).map((r) => r.path)).toEqual(["/primary", "/primary", "/fallback"]);
  });

  it("gives the fallback its own retry budget and fails when it fails too", async () => {
    receiver.respondWith(() => ({ status: 503 }));
    const webhook = await h.createWebhook({
      targetUrl: `${receiver.url}/p`,
      fallbackUrl: `${receiver.url}/f`,
      maxRetries: 1,
    });
    const { id } = await h.createEvent(webhook);
    await h.waitForStatus(id, "failed");
    const attempts = await h.attempts(id);
    expect(attempts.map((a) => [a.targetUrl.endsWith("/f"), a.isFallback])).toEqual([
      [false, false],
      [false, false],
      [true, true],
      [true, true],
    ]);
  });

  it("marks events that do not match the payload filters as filtered without a request", async () => {
    const webhook = await h.createWebhook({
      targetUrl: `${receiver.url}/filtered`,
      payloadFilters: [
        { field: "type", operator: "eq", value: "order.paid" },
        { field: "amount", operator: "gt", value: "10" },
      ],
    });
    const skipped = await h.createEvent(webhook, {
      body: JSON.stringify({ type: "order.created", amount: 50 }),
    });
    const matching = await h.createEvent(webhook, {
      body: JSON.stringify({ type: "order.paid", amount: 50 }),
    });
    await h.waitForStatus(skipped.id, "filtered");
    await h.waitForStatus(matching.id, "delivered");
    expect(await h.attempts(skipped.id)).toHaveLength(0);
    expect(requestsOf(skipped.id)).toHaveLength(0);
    expect(requestsOf(matching.id)).toHaveLength(1);
  });

  it("marks an event of a webhook without a target url delivered without any attempt", async () => {
    const webhook = await h.createWebhook({ targetUrl: "" });
    const { id } = await h.createEvent(webhook);
    const event = await h.waitForStatus(id, "delivered");
    expect(event.deliveredAt).not.toBeNull();
    expect(await h.attempts(id)).toHaveLength(0);
  });

  it("fails every attempt without a request when the chaos failure rate is 100", async () => {
    const webhook = await h.createWebhook({
      targetUrl: `${receiver.url}/chaos`,
      maxRetries: 2,
      chaosEnabled: true,
      chaosFailureRate: 100,
    });
    const { id } = await h.createEvent(webhook);
    const event = await h.waitForStatus(id, "failed");
    expect(event.lastError).toBe("chaos: injected failure");
    const attempts = await h.attempts(id);
    expect(attempts).toHaveLength(3);
    for (const attempt of attempts) {
      expect(attempt.statusCode).toBe(0);
      expect(attempt.error).toBe("chaos: injected failure");
    }
    expect(requestsOf(id)).toHaveLength(0);
  });

  it("adds the chaos latency before the attempt", async () => {
    const webhook = await h.createWebhook({
      targetUrl: receiver.url,
      chaosEnabled: true,
      chaosLatencyMs: 300,
    });
    const before = Date.now();
    const { id } = await h.createEvent(webhook);
    await h.waitForStatus(id, "delivered");
    const [request] = requestsOf(id);
    expect((request?.receivedAt ?? 0) - before).toBeGreaterThanOrEqual(300);
  });

  it("leaves a cancelled event alone", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/cancelled` });
    const { id } = await h.createEvent(webhook, { enqueue: false });
    await h.database.sql`update events set status = 'cancelled' where id = ${id}`;
    await h.enqueue(webhook, id, webhook.id);
    // The worker took the job and let it go (the job leaves its lane once handled).
    const lane = h.services.queues.get(webhook.priority as Priority);
    await waitUntil(async () => ((await lane?.getJob(id)) === undefined ? true : undefined));
    expect((await h.event(id)).status).toBe("cancelled");
    expect(requestsOf(id)).toHaveLength(0);
  });
});
