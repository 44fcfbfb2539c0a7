import { replayEvent } from "@hookflow/db";
import { jobIdOf } from "@hookflow/queue";
import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import {
  childrenOf,
  createNode,
  eventually,
  fromWebhook,
  parksOf,
  stepOutline,
} from "./pipeline-harness.js";

// HOOKFLOW_DELAY_SCALE is 0.001 in the harness: 2000 s of delay wait 2 s.
const DELAY_SECONDS = 2000;

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

async function delayedWebhook() {
  const webhook = await h.createWebhook({ targetUrl: receiver.url });
  const delay = await createNode(h, "delay", { delaySeconds: DELAY_SECONDS }, [
    fromWebhook(webhook.id),
  ]);
  return { webhook, delay };
}

describe("delay nodes", () => {
  it("park the event durably, then deliver it once the scaled delay is over", async () => {
    const { webhook, delay } = await delayedWebhook();
    const { id } = await h.createEvent(webhook, { body: '{"late":true}' });
    const parked = await h.waitForEvent(id, (e) => e.delayed);
    expect(parked).toMatchObject({
      status: "pending",
      delayed: true,
      awaitingApproval: false,
      parkedAt: { nodeType: "delay", nodeId: delay.id },
    });
    const [park] = await parksOf(h, id);
    expect(park).toMatchObject({ kind: "delay", status: "waiting", payload: '{"late":true}' });
    const delivered = await h.waitForStatus(id, "delivered");
    expect(delivered).toMatchObject({ delayed: false, parkedAt: null });
    const [done] = await parksOf(h, id);
    expect(done?.status).toBe("resumed");
    expect(done?.resolvedAt).not.toBeNull();
    expect(await stepOutline(h, id)).toEqual([`${delay.id}:running`, `${delay.id}:success`]);
    expect((await h.attempts(id)).map((a) => a.success)).toEqual([true]);
  });

  it("resume after the worker restarts while the event waits", async () => {
    const { webhook } = await delayedWebhook();
    const { id } = await h.createEvent(webhook);
    await h.waitForEvent(id, (e) => e.delayed);
    await h.restartWorker();
    await h.waitForStatus(id, "delivered");
  });

  it("resume when Redis lost the park's job: the sweeper enqueues it again", async () => {
    const { webhook } = await delayedWebhook();
    const { id } = await h.createEvent(webhook);
    await h.waitForEvent(id, (e) => e.delayed);
    const [park] = await parksOf(h, id);
    if (!park) throw new Error("no park");
    const jobId = jobIdOf({ eventId: id, webhookId: webhook.id, parkId: park.id });
    // As after a Redis restart that lost the delayed job.
    await eventually("the park's delayed job", async () => {
      for (const queue of h.services.queues.values()) {
        if ((await queue.getJobState(jobId)) === "delayed" && (await queue.remove(jobId)) === 1) {
          return true;
        }
      }
      return undefined;
    });
    await h.waitForStatus(id, "delivered", 20_000);
  });

  it("close the parks of an earlier run when the event is replayed meanwhile", async () => {
    const webhook = await h.createWebhook({ targetUrl: receiver.url });
    await createNode(h, "filter", { filters: [{ field: "a", operator: "exists" }] }, [
      fromWebhook(webhook.id),
    ]);
    await createNode(h, "delay", { delaySeconds: DELAY_SECONDS }, [fromWebhook(webhook.id)]);
    const { id } = await h.createEvent(webhook, { body: '{"a":1}' });
    // The filter's path delivers the event at once; the delayed path waits.
    await h.waitForStatus(id, "delivered");
    const [first] = await parksOf(h, id);
    expect(first?.status).toBe("waiting");
    expect(await replayEvent(h.database.db, id, new Date())).toBeDefined();
    await h.enqueue(webhook, id, webhook.id);
    await h.waitForEvent(id, (e) => e.status === "delivered" && e.attemptCount === 2);
    const parks = await eventually("both runs' parks to resolve", async () => {
      const rows = await parksOf(h, id);
      return rows.length === 2 && rows.every((p) => p.resolvedAt !== null) ? rows : undefined;
    });
    expect(parks.map((p) => p.status)).toEqual(["cancelled", "resumed"]);
    // Only the second run's delayed path became a further delivery.
    const children = await eventually("the second run's child event", async () => {
      const rows = await childrenOf(h, id);
      return rows.length > 0 ? rows : undefined;
    });
    expect(children).toHaveLength(1);
  });
});
