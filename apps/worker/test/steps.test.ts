import type { StepEntry, StepHub } from "@hookflow/queue";
import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "./harness.js";
import { type StepWatch, startStepWatch } from "./step-watch.js";

let h: WorkerHarness;
let receiver: Receiver;
let watch: StepWatch;
let hub: StepHub;

beforeAll(async () => {
  h = await startWorkerHarness();
  receiver = await startReceiver();
  watch = startStepWatch(h);
  hub = watch.hub;
});

afterAll(async () => {
  await watch?.close();
  await h.close();
  await receiver.close();
});

/** Every message of the event up to and including `done`, as the stream would relay them. */
function messagesUntilDone(eventId: string, timeoutMs = 15_000): Promise<StepEntry[]> {
  return new Promise((resolve, reject) => {
    const seen: StepEntry[] = [];
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no done for ${eventId}; saw ${JSON.stringify(seen)}`));
    }, timeoutMs);
    const stop = hub.watch(eventId, {}, (entry) => {
      seen.push(entry);
      if (entry.message.kind !== "done") return;
      clearTimeout(timer);
      stop();
      resolve(seen);
    });
  });
}

/** `[nodeType, nodeName, status, statusCode?]` of each step, and `done:<deliveryStatus>`. */
function outline(entries: StepEntry[]): string[] {
  return entries.map(({ message }) => {
    switch (message.kind) {
      case "step": {
        const { nodeType, nodeName, status, statusCode } = message.step;
        return [nodeType, nodeName, status, statusCode].filter((v) => v !== undefined).join(" ");
      }
      case "done":
        return `done ${message.done.body.deliveryStatus} ${message.done.status}`;
      default:
        return "parked";
    }
  });
}

describe("worker step publishing", () => {
  beforeEach(() => {
    receiver.respondWith(() => ({ status: 200, body: '{"ok":true}' }));
  });

  it("publishes the delivery as running then success, then done with the response", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/hook` });
    const { id } = await h.createEvent(webhook);
    const entries = await messagesUntilDone(id);
    expect(outline(entries)).toEqual([
      "delivery target running",
      "delivery target success 200",
      "done delivered 200",
    ]);
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    const [running, success, done] = entries.map((entry) => entry.message);
    expect(running).toEqual({
      kind: "step",
      step: {
        eventId: id,
        nodeType: "delivery",
        nodeId: webhook.id,
        nodeName: "target",
        status: "running",
        at: expect.any(String),
      },
    });
    if (success?.kind !== "step" || done?.kind !== "done") throw new Error("unexpected kinds");
    expect(success.step.durationMs).toEqual(expect.any(Number));
    expect(success.step.error).toBeUndefined();
    const event = await h.event(id);
    expect(event.status).toBe("delivered");
    expect(done.done).toEqual({
      eventId: id,
      status: 200,
      body: { deliveryStatus: "delivered", statusCode: 200, latencyMs: expect.any(Number) },
      response: '{"ok":true}',
    });
  });

  it("publishes a blocked payload-filter step and done filtered when the filters do not match", async () => {
    const webhook = await h.createWebhook({
      targetUrl: receiver.url,
      payloadFilters: [{ field: "type", operator: "eq", value: "wanted" }],
    });
    const { id } = await h.createEvent(webhook, { body: '{"type":"other"}' });
    const entries = await messagesUntilDone(id);
    expect(outline(entries)).toEqual([
      "webhook payload filters running",
      "webhook payload filters blocked",
      "done filtered 200",
    ]);
    expect((await h.event(id)).status).toBe("filtered");
  });

  it("publishes a successful payload-filter step before the delivery when the filters match", async () => {
    const webhook = await h.createWebhook({
      targetUrl: receiver.url,
      payloadFilters: [{ field: "type", operator: "eq", value: "wanted" }],
    });
    const { id } = await h.createEvent(webhook, { body: '{"type":"wanted"}' });
    expect(outline(await messagesUntilDone(id))).toEqual([
      "webhook payload filters running",
      "webhook payload filters success",
      "delivery target running",
      "delivery target success 200",
      "done delivered 200",
    ]);
  });

  it("publishes a failed attempt and done with status 502 when no retry is left", async () => {
    receiver.respondWith(() => ({ status: 500, body: "nope" }));
    const webhook = await h.createWebhook({ targetUrl: receiver.url, maxRetries: 0 });
    const { id } = await h.createEvent(webhook);
    const entries = await messagesUntilDone(id);
    expect(outline(entries)).toEqual([
      "delivery target running",
      "delivery target error 500",
      "done failed 502",
    ]);
    const failed = entries[1]?.message;
    expect(failed?.kind === "step" && failed.step.error).toBe("HTTP 500");
    const done = entries[2]?.message;
    expect(done?.kind === "done" && done.done.response).toBe("nope");
  });

  it("does not publish done while retries remain, only when the retry succeeds", async () => {
    let calls = 0;
    receiver.respondWith(() => (++calls === 1 ? { status: 503 } : { status: 200, body: "ok" }));
    const webhook = await h.createWebhook({ targetUrl: receiver.url, maxRetries: 2 });
    const { id } = await h.createEvent(webhook);
    expect(outline(await messagesUntilDone(id))).toEqual([
      "delivery target running",
      "delivery target error 503",
      "delivery target running",
      "delivery target success 200",
      "done delivered 200",
    ]);
  });

  it("publishes the fallback attempt after the primary fails and settles delivered", async () => {
    receiver.respondWith((request) =>
      request.path === "/fallback" ? { status: 200, body: "saved" } : { status: 500 },
    );
    const webhook = await h.createWebhook({
      targetUrl: `${receiver.url}/primary`,
      fallbackUrl: `${receiver.url}/fallback`,
      maxRetries: 0,
    });
    const { id } = await h.createEvent(webhook);
    const entries = await messagesUntilDone(id);
    expect(outline(entries)).toEqual([
      "delivery target running",
      "delivery target error 500",
      "delivery fallback target running",
      "delivery fallback target success 200",
      "done delivered 200",
    ]);
    const done = entries.at(-1)?.message;
    expect(done?.kind === "done" && done.done.response).toBe("saved");
  });

  it("publishes done delivered for a webhook without a target url", async () => {
    const webhook = await h.createWebhook({ targetUrl: "" });
    const { id } = await h.createEvent(webhook);
    const entries = await messagesUntilDone(id);
    expect(outline(entries)).toEqual(["done delivered 200"]);
    const done = entries[0]?.message;
    expect(done?.kind === "done" && done.done.body).toEqual({
      deliveryStatus: "delivered",
      statusCode: 0,
      latencyMs: 0,
    });
  });

  it("cuts the response in done to its first 4 KB", async () => {
    receiver.respondWith(() => ({ status: 200, body: "é".repeat(3000) }));
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    const { id } = await h.createEvent(webhook);
    const done = (await messagesUntilDone(id)).at(-1)?.message;
    if (done?.kind !== "done") throw new Error("no done");
    expect(done.done.response).toBe("é".repeat(2048));
  });

  it("publishes a blocked delivery step while the circuit is open", async () => {
    receiver.respondWith(() => ({ status: 500 }));
    const webhook = await h.createWebhook({
      targetUrl: receiver.url,
      maxRetries: 0,
      circuitBreakerEnabled: true,
      circuitBreakerThreshold: 1,
      circuitBreakerCooldownSeconds: 3600,
    });
    const first = await h.createEvent(webhook);
    await messagesUntilDone(first.id);
    const second = await h.createEvent(webhook);
    const blocked = await new Promise<StepEntry[]>((resolve) => {
      const seen: StepEntry[] = [];
      const stop = hub.watch(second.id, {}, (entry) => {
        seen.push(entry);
        if (entry.message.kind === "step" && entry.message.step.status === "blocked") {
          stop();
          resolve(seen);
        }
      });
    });
    expect(outline(blocked.slice(0, 2))).toEqual([
      "delivery target running",
      "delivery target blocked",
    ]);
    const step = blocked[1]?.message;
    expect(step?.kind === "step" && step.step.error).toBe("circuit open");
  });

  it("expedites the steps of a sync-mode webhook's events, and only those", async () => {
    const expedited: string[] = [];
    const expedite = h.services.steps.expedite;
    h.services.steps.expedite = (eventId) => {
      expedited.push(eventId);
      expedite(eventId);
    };
    try {
      const sync = await h.createWebhook({ targetUrl: receiver.url, responseMode: "sync" });
      const plain = await h.createWebhook({ targetUrl: receiver.url });
      const waited = await h.createEvent(sync);
      const other = await h.createEvent(plain);
      await Promise.all([messagesUntilDone(waited.id), messagesUntilDone(other.id)]);
      expect(expedited).toEqual([waited.id]);
    } finally {
      h.services.steps.expedite = expedite;
    }
  });
});
