import { lookup } from "node:dns/promises";
import { hostname } from "node:os";
import { CLOSED_CIRCUIT, isPrivateAddress } from "@hookflow/domain";
import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "./harness.js";

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

function requestsTo(path: string) {
  return receiver.requests.filter((r) => r.path === path);
}

describe("webhook health", () => {
  it("goes degraded, then down, on consecutive final failures and back to healthy on a success", async () => {
    let failing = true;
    receiver.respondWith((r) =>
      r.path === "/health" && failing ? { status: 500 } : { status: 200 },
    );
    const webhook = await h.createWebhook({
      targetUrl: `${receiver.url}/health`,
      maxRetries: 1,
      degradedAfter: 2,
      downAfter: 3,
    });
    const seen: Array<[number, string]> = [];
    for (let i = 0; i < 3; i++) {
      const { id } = await h.createEvent(webhook);
      await h.waitForStatus(id, "failed");
      const row = await h.webhook(webhook.id);
      seen.push([row.consecutiveFailures, row.healthStatus]);
    }
    // Each event failed twice (1 + maxRetries attempts) but counts as one failure.
    expect(seen).toEqual([
      [1, "healthy"],
      [2, "degraded"],
      [3, "down"],
    ]);
    failing = false;
    const { id } = await h.createEvent(webhook);
    await h.waitForStatus(id, "delivered");
    const after = await h.webhook(webhook.id);
    expect([after.consecutiveFailures, after.healthStatus]).toEqual([0, "healthy"]);
  });

  it("counts concurrent final failures without losing any", async () => {
    receiver.respondWith(() => ({ status: 500 }));
    const webhook = await h.createWebhook({
      targetUrl: `${receiver.url}/many`,
      maxRetries: 0,
      degradedAfter: 5,
      downAfter: 20,
    });
    const created = await Promise.all(Array.from({ length: 12 }, () => h.createEvent(webhook)));
    for (const { id } of created) await h.waitForStatus(id, "failed");
    const row = await h.webhook(webhook.id);
    expect(row.consecutiveFailures).toBe(12);
    expect(row.healthStatus).toBe("degraded");
  });
});

describe("circuit breaker", () => {
  it("opens after the threshold, defers other events without spending their budget, and a successful probe closes it", async () => {
    let healthy = false;
    receiver.respondWith((r) =>
      r.path === "/breaker" ? { status: healthy ? 200 : 500 } : { status: 200 },
    );
    const webhook = await h.createWebhook({
      targetUrl: `${receiver.url}/breaker`,
      maxRetries: 5,
      circuitBreakerEnabled: true,
      circuitBreakerThreshold: 2,
      // 3000 s scaled by 0.001: a 3 s cooldown.
      circuitBreakerCooldownSeconds: 3000,
    });
    const first = await h.createEvent(webhook);
    await h.waitForEvent(first.id, (e) => e.attemptCount === 2);
    const opened = await h.webhook(webhook.id);
    expect(opened.circuitState).toBe("open");

    const second = await h.createEvent(webhook);
    const deferred = await h.waitForStatus(second.id, "retrying");
    expect(deferred.attemptCount).toBe(0);
    expect(await h.attempts(second.id)).toHaveLength(0);
    // While open, the first event makes no further attempt either.
    expect((await h.event(first.id)).attemptCount).toBe(2);
    expect(requestsTo("/breaker")).toHaveLength(2);

    healthy = true;
    await h.waitForStatus(first.id, "delivered", 20_000);
    await h.waitForStatus(second.id, "delivered", 20_000);
    expect((await h.webhook(webhook.id)).circuitState).toBe("closed");
    expect(await h.attempts(second.id)).toHaveLength(1);
    const firstAttempts = await h.attempts(first.id);
    expect(firstAttempts.map((a) => a.success)).toEqual([false, false, true]);
    expect(requestsTo("/breaker")).toHaveLength(4);
  });

  it("lets exactly one of many concurrent workers take the half-open probe", async () => {
    const breaker = h.services.breaker;
    const webhookId = `wh_probe_${Date.now()}`;
    const config = { threshold: 1, cooldownSeconds: 1, probeTimeoutMs: 60_000 };
    const opened = await breaker.record(webhookId, config, false, 1_000);
    expect(opened.state.state).toBe("open");
    // Cooldown 1 s at scale 1 has passed at t = 5 s: everyone races for the probe.
    const decisions = await Promise.all(
      Array.from({ length: 20 }, () => breaker.acquire(webhookId, config, 5_000, 1)),
    );
    const allowed = decisions.filter((d) => d.decision.allow);
    expect(allowed).toHaveLength(1);
    expect((await breaker.read(webhookId)).state).toBe("half_open");
    // A failed probe reopens it for another cooldown.
    const reopened = await breaker.record(webhookId, config, false, 5_100);
    expect(reopened.state.state).toBe("open");
    const early = await breaker.acquire(webhookId, config, 5_200, 1);
    expect(early.decision).toEqual({ allow: false, retryAtMs: 6_100 });
    const closed = await breaker.record(webhookId, config, true, 6_200);
    expect(closed.state).toEqual(CLOSED_CIRCUIT);
  });
});

describe("rate limits", () => {
  it("defers attempts over the per-second limit and still delivers every event", async () => {
    receiver.respondWith(() => ({ status: 200 }));
    const webhook = await h.createWebhook({
      targetUrl: `${receiver.url}/limited`,
      rateLimitPerSecond: 2,
      // Never reached by six events; its window keeps every admission, with Redis's clock.
      rateLimitPerMinute: 60,
      maxRetries: 0,
    });
    const created = await Promise.all(Array.from({ length: 6 }, () => h.createEvent(webhook)));
    for (const { id } of created) await h.waitForStatus(id, "delivered", 20_000);
    for (const { id } of created) expect(await h.attempts(id)).toHaveLength(1);
    expect(requestsTo("/limited")).toHaveLength(6);
    // Sliding window: any three admissions span at least a second. Read from the limiter's own
    // record (the times it let each attempt go), not the receiver's clock, which adds however
    // long each request took to arrive.
    const admitted = await h.services.redis.zrange(
      h.services.keys.rateWindow(`${webhook.id}:m`),
      0,
      -1,
      "WITHSCORES",
    );
    const times = admitted
      .filter((_, index) => index % 2 === 1)
      .map(Number)
      .sort((a, b) => a - b);
    expect(times).toHaveLength(6);
    for (let i = 0; i + 2 < times.length; i++) {
      expect((times[i + 2] ?? 0) - (times[i] ?? 0)).toBeGreaterThanOrEqual(1000);
    }
  });
});

describe("private targets", () => {
  let strict: WorkerHarness;

  beforeAll(async () => {
    strict = await startWorkerHarness({ ALLOW_PRIVATE_TARGETS: "false" });
  });

  afterAll(async () => {
    await strict.close();
  });

  it("refuses a loopback IP target: the attempt is recorded with the error and nothing is sent", async () => {
    const port = new URL(receiver.url).port;
    const webhook = await strict.createWebhook({
      targetUrl: `http://127.0.0.1:${port}/ssrf-literal`,
      maxRetries: 3,
    });
    const { id } = await strict.createEvent(webhook);
    const event = await strict.waitForStatus(id, "failed");
    const attempts = await strict.attempts(id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.statusCode).toBe(0);
    expect(attempts[0]?.error).toMatch(/target refused/);
    expect(event.lastError).toMatch(/private, loopback or link-local/);
    expect(requestsTo("/ssrf-literal")).toHaveLength(0);
  });

  it("refuses a host name that resolves to a private address", async () => {
    const name = hostname();
    const resolved = await lookup(name);
    // Precondition of this test: the machine's own name resolves to a private address.
    expect(isPrivateAddress(resolved.address)).toBe(true);
    const port = new URL(receiver.url).port;
    const webhook = await strict.createWebhook({
      targetUrl: `http://${name}:${port}/ssrf-name`,
      maxRetries: 0,
    });
    const { id } = await strict.createEvent(webhook);
    await strict.waitForStatus(id, "failed");
    const [attempt] = await strict.attempts(id);
    expect(attempt?.error).toContain(`${name} resolves to ${resolved.address}`);
    expect(requestsTo("/ssrf-name")).toHaveLength(0);
  });
});
