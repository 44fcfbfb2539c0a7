import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { childrenOf, createNode, fromWebhook, parksOf, recordedSteps } from "./pipeline-harness.js";

// HOOKFLOW_DELAY_SCALE is 0.001 in the harness: windows and queue delays shrink 1000 times.
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

async function send(webhook: { id: string; priority: number }, count: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push((await h.createEvent(webhook, { body: `{"n":${i}}` })).id);
  return ids;
}

async function finalStatuses(ids: string[]) {
  const rows = await Promise.all(
    ids.map((id) => h.waitForEvent(id, (e) => e.status !== "pending" && e.status !== "retrying")),
  );
  return rows.map((row) => row.status).sort();
}

describe("rate limiter nodes", () => {
  it("drop the arrivals over the limit as filtered, across the whole window", async () => {
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    const limiter = await createNode(
      h,
      "rateLimiter",
      { maxEvents: 2, windowSeconds: 86_400, overflowAction: "drop" },
      [fromWebhook(webhook.id)],
    );
    const ids = await send(webhook, 4);
    expect(await finalStatuses(ids)).toEqual(["delivered", "delivered", "filtered", "filtered"]);
    const blocked = await Promise.all(ids.map((id) => recordedSteps(h, id)));
    const reasons = blocked.flat().filter((s) => s.nodeId === limiter.id && s.status === "blocked");
    expect(reasons.map((s) => s.error)).toEqual([
      "rate limit reached: 2 per 86400s",
      "rate limit reached: 2 per 86400s",
    ]);
  });

  it("queue the arrivals over the limit until a slot frees, then deliver them", async () => {
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    await createNode(
      h,
      "rateLimiter",
      {
        maxEvents: 1,
        windowSeconds: 1000,
        overflowAction: "queue",
        maxQueueDelaySeconds: 20_000,
      },
      [fromWebhook(webhook.id)],
    );
    const ids = await send(webhook, 3);
    expect(await finalStatuses(ids)).toEqual(["delivered", "delivered", "delivered"]);
    const parks = (await Promise.all(ids.map((id) => parksOf(h, id)))).flat();
    expect(parks.length).toBeGreaterThanOrEqual(2);
    expect(parks.every((p) => p.kind === "rateLimiter" && p.status === "resumed")).toBe(true);
  });

  it("drop a queued arrival whose next slot lies beyond maxQueueDelaySeconds", async () => {
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    await createNode(
      h,
      "rateLimiter",
      { maxEvents: 1, windowSeconds: 86_400, overflowAction: "queue", maxQueueDelaySeconds: 1000 },
      [fromWebhook(webhook.id)],
    );
    const ids = await send(webhook, 2);
    expect(await finalStatuses(ids)).toEqual(["delivered", "filtered"]);
  });

  it("forward allowed events to their output webhooks", async () => {
    const source = await h.createWebhook({ targetUrl: `${receiver.url}/source` });
    const out = await h.createWebhook({ targetUrl: `${receiver.url}/out` });
    await createNode(
      h,
      "rateLimiter",
      { maxEvents: 10, windowSeconds: 60, outputWebhookIds: [out.id] },
      [fromWebhook(source.id)],
    );
    const [id] = await send(source, 1);
    if (!id) throw new Error("no event");
    await h.waitForStatus(id, "delivered");
    const [child] = await childrenOf(h, id);
    expect(child?.webhookId).toBe(out.id);
    if (child) await h.waitForStatus(child.id, "delivered");
    expect(receiver.requests.filter((r) => r.path === "/out")).toHaveLength(1);
    expect(receiver.requests.filter((r) => r.path === "/source")).toHaveLength(0);
  });
});
