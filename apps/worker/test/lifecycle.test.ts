import { type Priority, WebhookChanged } from "@hookflow/queue";
import { type Receiver, scrapeMetrics, startReceiver, waitFor } from "@hookflow/testing";
import { createWorkerHttpApp } from "../src/http/worker-app.js";
import { startWorkerHarness, type WorkerHarness } from "./harness.js";

let h: WorkerHarness;
let receiver: Receiver;

beforeAll(async () => {
  h = await startWorkerHarness({ WORKER_CONCURRENCY: "5" }, { intervalMs: 250, graceMs: 250 });
  receiver = await startReceiver();
});

afterAll(async () => {
  await h.close();
  await receiver.close();
});

function requestsTo(path: string) {
  return receiver.requests.filter((r) => r.path === path);
}

async function jobGone(
  harness: WorkerHarness,
  priority: number,
  eventId: string,
): Promise<boolean> {
  const queue = harness.services.queues.get(priority as Priority);
  return (await queue?.getJob(eventId)) === undefined;
}

describe("inactive webhooks and the sweeper", () => {
  it("holds events of an inactive webhook and delivers them in arrival order once it is active", async () => {
    // One slot: deliveries are serial, so the order they start in is the order they arrive in.
    const serial = await startWorkerHarness(
      { WORKER_CONCURRENCY: "1" },
      { intervalMs: 250, graceMs: 250 },
    );
    try {
      await deliversHeldEventsInOrder(serial);
    } finally {
      await serial.close();
    }
  });

  async function deliversHeldEventsInOrder(h: WorkerHarness): Promise<void> {
    receiver.respondWith(() => ({ status: 200 }));
    const webhook = await h.createWebhook({
      targetUrl: `${receiver.url}/inactive`,
      isActive: false,
      priority: 3,
    });
    const base = Date.now() - 5_000;
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { id } = await h.createEvent(webhook, { createdAt: new Date(base + i * 10) });
      created.push(id);
    }
    // Every job ran and finished without delivering.
    for (const id of created) await waitFor(() => jobGone(h, 3, id));
    for (const id of created) expect((await h.event(id)).status).toBe("pending");
    expect(requestsTo("/inactive")).toHaveLength(0);

    await h.database.sql`update webhooks set is_active = true where id = ${webhook.id}`;
    await h.services.redis.publish(
      h.services.keys.webhookChangedChannel,
      JSON.stringify(WebhookChanged.parse({ webhookId: webhook.id })),
    );
    for (const id of created) await h.waitForStatus(id, "delivered");
    const order = requestsTo("/inactive").map((r) => r.headers["x-hookflow-event-id"]);
    expect(order).toEqual(created);
  }

  it("re-enqueues an event whose job Redis lost and delivers it exactly once", async () => {
    receiver.respondWith(() => ({ status: 200 }));
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/lost`, priority: 4 });
    // Committed to Postgres but never enqueued (a crash between commit and enqueue).
    const { id } = await h.createEvent(webhook, {
      enqueue: false,
      createdAt: new Date(Date.now() - 2_000),
    });
    await h.waitForStatus(id, "delivered");
    // Three sweeps after delivery: none may enqueue the event again (a job it left would
    // still be in the lane; once the lane holds none, nothing more can arrive).
    for (let i = 0; i < 3; i++) await h.worker.sweepNow();
    await waitFor(() => jobGone(h, 4, id));
    expect(requestsTo("/lost")).toHaveLength(1);
    expect(await h.attempts(id)).toHaveLength(1);
  });

  it("recovers a retrying event after its queue was obliterated", async () => {
    let calls = 0;
    receiver.respondWith((r) => {
      if (r.path !== "/obliterated") return { status: 200 };
      calls += 1;
      return { status: calls === 1 ? 500 : 200 };
    });
    const webhook = await h.createWebhook({
      targetUrl: `${receiver.url}/obliterated`,
      priority: 2,
      maxRetries: 3,
      // 1500 s scaled by 0.001: the retry is due in about 1.5 s.
      retryDelaySeconds: 1500,
    });
    const { id } = await h.createEvent(webhook);
    await h.waitForStatus(id, "retrying");
    const queue = h.services.queues.get(2);
    await queue?.obliterate({ force: true });
    expect(await queue?.getJob(id)).toBeUndefined();
    const event = await h.waitForStatus(id, "delivered");
    expect(event.attemptCount).toBe(2);
    expect(requestsTo("/obliterated")).toHaveLength(2);
  });
});

describe("priority lanes", () => {
  /** A harness of its own: its lane worker is stopped while a test builds its backlog. */
  let lanes: WorkerHarness;
  beforeAll(async () => {
    lanes = await startWorkerHarness({ WORKER_CONCURRENCY: "6" });
  });
  afterAll(async () => {
    await lanes.close();
  });

  it("with a backlog in two lanes, delivers priority 1 ahead of a priority-5 backlog enqueued first", async () => {
    receiver.respondWith(() => ({ status: 200, delayMs: 40 }));
    const low = await lanes.createWebhook({ targetUrl: `${receiver.url}/lane`, priority: 5 });
    const high = await lanes.createWebhook({ targetUrl: `${receiver.url}/lane`, priority: 1 });
    await lanes.worker.close();
    const lowIds = new Set<string>();
    const highIds = new Set<string>();
    for (let i = 0; i < 20; i++) lowIds.add((await lanes.createEvent(low)).id);
    for (let i = 0; i < 20; i++) highIds.add((await lanes.createEvent(high)).id);
    await lanes.restartWorker();
    for (const id of [...lowIds, ...highIds]) await lanes.waitForStatus(id, "delivered", 30_000);
    const order = requestsTo("/lane").map((r) => String(r.headers["x-hookflow-event-id"]));
    const rank = (ids: Set<string>) => {
      const ranks = order.flatMap((id, index) => (ids.has(id) ? [index] : []));
      return ranks.reduce((sum, r) => sum + r, 0) / ranks.length;
    };
    expect(rank(highIds)).toBeLessThan(rank(lowIds));
    const lastHigh = Math.max(...order.flatMap((id, i) => (highIds.has(id) ? [i] : [])));
    const lastLow = Math.max(...order.flatMap((id, i) => (lowIds.has(id) ? [i] : [])));
    expect(lastHigh).toBeLessThan(lastLow);
  });

  it("lends the idle lanes' slots to a lone backlog (work-conserving)", async () => {
    // 6 slots: lane 3's fixed share would be 1; alone with work it gets all of them.
    let inFlight = 0;
    let most = 0;
    receiver.respondWith((r) => {
      if (r.path !== "/conserving") return { status: 200 };
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
      }, 1_500);
      return { status: 200, delayMs: 1_500 };
    });
    const webhook = await lanes.createWebhook({
      targetUrl: `${receiver.url}/conserving`,
      priority: 3,
    });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await lanes.createEvent(webhook)).id);
    await waitFor(async () => most >= 5, "five deliveries in flight at once", {
      timeoutMs: 20_000,
    });
    for (const id of ids) await lanes.waitForStatus(id, "delivered", 30_000);
  });
});

describe("worker http app", () => {
  it("answers health with its dependencies; delivery metrics are on the metrics listener", async () => {
    const app = createWorkerHttpApp(h.services);
    const health = await app.request("/api/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: "ok",
      role: "worker",
      checks: { postgres: true, redis: true },
    });
    expect((await app.request("/metrics")).status).toBe(404);
    const { status, text } = await scrapeMetrics(h.services.metrics);
    expect(status).toBe(200);
    expect(text).toMatch(/hookflow_delivery_attempts_total\{outcome="success",target="primary"/);
    expect(text).toMatch(/hookflow_delivery_latency_seconds_bucket/);
    expect(text).toMatch(/hookflow_delivery_queue_depth\{lane="deliver-p1",state="waiting"/);
    expect((await app.request("/nope")).status).toBe(404);
  });
});

describe("graceful shutdown", () => {
  it("lets an in-flight slow delivery finish before close resolves", async () => {
    receiver.respondWith((r) =>
      r.path === "/slow" ? { status: 200, delayMs: 1_500 } : { status: 200 },
    );
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/slow` });
    const { id } = await h.createEvent(webhook);
    await waitFor(async () => requestsTo("/slow").length === 1);
    expect((await h.event(id)).status).toBe("pending");
    await h.worker.close();
    const event = await h.event(id);
    expect(event.status).toBe("delivered");
    expect(await h.attempts(id)).toHaveLength(1);
  });
});
