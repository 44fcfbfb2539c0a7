import { createLogger, createMetrics } from "@hookflow/observability";
import { type Receiver, startReceiver } from "@hookflow/testing";
import { buildWorkerServices } from "../../src/services.js";
import { startWorker } from "../../src/start-worker.js";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import {
  childrenOf,
  createNode,
  eventually,
  fromNode,
  fromWebhook,
  parksOf,
  stepOutline,
} from "./pipeline-harness.js";

// HOOKFLOW_DELAY_SCALE is 0.001 in the harness: the 1 h merge wait lasts 3.6 s.
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

const requestsFor = (eventId: string) =>
  receiver.requests.filter((r) => r.headers["x-hookflow-event-id"] === eventId);

/** W -> filter -> merge and W -> delay -> merge: one branch arrives at once, one later. */
async function diamond(mode: "wait_all" | "first", delaySeconds = 200) {
  const webhook = await h.createWebhook({ targetUrl: receiver.url });
  const now = await createNode(h, "filter", { filters: [{ field: "a", operator: "exists" }] }, [
    fromWebhook(webhook.id),
  ]);
  const later = await createNode(h, "delay", { delaySeconds }, [fromWebhook(webhook.id)]);
  const merge = await createNode(h, "merge", { mode, expectedBranchCount: 2 }, [
    fromNode(now),
    fromNode(later),
  ]);
  return { webhook, merge, now, later };
}

describe("merge nodes", () => {
  it("wait for every branch, then deliver them once as branches in arrival order", async () => {
    const { webhook, merge } = await diamond("wait_all");
    const { id } = await h.createEvent(webhook, { body: '{"a":1}' });
    const waiting = await h.waitForEvent(id, (e) => e.awaitingMerge || e.status === "delivered");
    expect(waiting).toMatchObject({ status: "pending", awaitingMerge: true, delayed: true });
    await h.waitForStatus(id, "delivered");
    const [request, ...more] = requestsFor(id);
    expect(more).toEqual([]);
    expect(JSON.parse(request?.body.toString("utf8") ?? "")).toEqual({
      branches: [{ a: 1 }, { a: 1 }],
    });
    const mergeSteps = (await stepOutline(h, id)).filter((s) => s.startsWith(merge.id));
    expect(mergeSteps).toEqual([`${merge.id}:running`, `${merge.id}:success`]);
    const parks = await parksOf(h, id);
    expect(parks.map((p) => `${p.kind}:${p.status}`).sort()).toEqual([
      "delay:resumed",
      "merge:resumed",
    ]);
    expect(parks.every((p) => p.resolvedAt !== null)).toBe(true);
    expect(await childrenOf(h, id)).toEqual([]);
  });

  it("go on with the first branch only in first mode", async () => {
    const { webhook, merge } = await diamond("first");
    const { id } = await h.createEvent(webhook, { body: '{"a":2}' });
    await h.waitForStatus(id, "delivered");
    // The delayed branch arrives later and ends at the merge: its park resolves, nothing more.
    const parks = await eventually("the delayed branch to arrive", async () => {
      const rows = await parksOf(h, id);
      return rows.every((p) => p.resolvedAt !== null) ? rows : undefined;
    });
    expect(parks.map((p) => `${p.kind}:${p.status}`)).toEqual(["delay:resumed"]);
    const mergeSteps = (await stepOutline(h, id)).filter((s) => s.startsWith(merge.id));
    expect(mergeSteps).toEqual([`${merge.id}:running`, `${merge.id}:success`]);
    expect(requestsFor(id).map((r) => r.body.toString("utf8"))).toEqual(['{"a":2}']);
    expect(await childrenOf(h, id)).toEqual([]);
  });

  it("fail the event when the other branches never arrive within the merge wait", async () => {
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    const pass = await createNode(h, "filter", { filters: [{ field: "a", operator: "exists" }] }, [
      fromWebhook(webhook.id),
    ]);
    const block = await createNode(h, "filter", { filters: [{ field: "b", operator: "exists" }] }, [
      fromWebhook(webhook.id),
    ]);
    const merge = await createNode(h, "merge", { expectedBranchCount: 2 }, [
      fromNode(pass),
      fromNode(block),
    ]);
    const { id } = await h.createEvent(webhook, { body: '{"a":1}' });
    const failed = await h.waitForStatus(id, "failed", 20_000);
    expect(failed).toMatchObject({
      lastError: "merge timed out waiting for 2 branches",
      awaitingMerge: false,
    });
    expect((await parksOf(h, id)).map((p) => p.status)).toEqual(["expired"]);
    expect((await stepOutline(h, id)).slice(-1)).toEqual([`${merge.id}:error`]);
    expect(requestsFor(id)).toEqual([]);
  });

  it("merge once when two workers finish the branches of many events at the same moment", async () => {
    const second = buildWorkerServices({
      config: h.services.config,
      logger: createLogger({ level: "silent", role: "worker" }),
      metrics: createMetrics({ role: "worker", defaultMetrics: false }),
    });
    const secondWorker = await startWorker(second);
    try {
      const webhook = await h.createWebhook({ targetUrl: receiver.url });
      const left = await createNode(h, "delay", { delaySeconds: 300 }, [fromWebhook(webhook.id)]);
      const right = await createNode(h, "delay", { delaySeconds: 300 }, [fromWebhook(webhook.id)]);
      await createNode(h, "merge", { expectedBranchCount: 2 }, [fromNode(left), fromNode(right)]);
      const ids: string[] = [];
      for (let i = 0; i < 20; i++)
        ids.push((await h.createEvent(webhook, { body: `{"i":${i}}` })).id);
      for (const id of ids) await h.waitForStatus(id, "delivered");
      for (const [i, id] of ids.entries()) {
        const bodies = requestsFor(id).map((r) => JSON.parse(r.body.toString("utf8")));
        expect(bodies).toEqual([{ branches: [{ i }, { i }] }]);
        expect(await childrenOf(h, id)).toEqual([]);
      }
    } finally {
      await secondWorker.close();
      await second.close();
    }
  });
});
