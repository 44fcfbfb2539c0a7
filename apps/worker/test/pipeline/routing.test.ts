import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { childrenOf, createNode, fromNode, fromWebhook, stepOutline } from "./pipeline-harness.js";

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

const bodiesAt = (path: string) =>
  receiver.requests
    .filter((r) => r.path === path)
    .map((r) => JSON.parse(r.body.toString("utf8")) as unknown);

describe("routers", () => {
  it("forward the event as a child event into the first matching route's webhook", async () => {
    const source = await h.createWebhook({ targetUrl: `${receiver.url}/source` });
    const refunds = await h.createWebhook({ targetUrl: `${receiver.url}/refunds` });
    const orders = await h.createWebhook({ targetUrl: `${receiver.url}/orders` });
    const router = await createNode(
      h,
      "router",
      {
        routes: [
          { field: "type", operator: "eq", value: "refund", outputWebhookId: refunds.id },
          { field: "type", operator: "exists", outputWebhookId: orders.id },
        ],
      },
      [fromWebhook(source.id)],
    );
    const body = JSON.stringify({ type: "refund", amount: 5 });
    const { id } = await h.createEvent(source, { body });
    const parent = await h.waitForStatus(id, "delivered");
    expect(parent.deliveredAt).not.toBeNull();
    expect(await h.attempts(id)).toHaveLength(0);
    const [child] = await childrenOf(h, id);
    if (!child) throw new Error("no child event");
    expect(child).toMatchObject({ webhookId: refunds.id, parentEventId: id, body });
    await h.waitForStatus(child.id, "delivered");
    expect(bodiesAt("/refunds")).toEqual([{ type: "refund", amount: 5 }]);
    expect(bodiesAt("/orders")).toEqual([]);
    expect(bodiesAt("/source")).toEqual([]);
    expect(await stepOutline(h, id)).toEqual([`${router.id}:running`, `${router.id}:success`]);
  });

  it("filter the event when no route matches", async () => {
    const source = await h.createWebhook({ targetUrl: `${receiver.url}/nowhere` });
    const other = await h.createWebhook({ targetUrl: `${receiver.url}/other` });
    const router = await createNode(
      h,
      "router",
      { routes: [{ field: "type", operator: "eq", value: "x", outputWebhookId: other.id }] },
      [fromWebhook(source.id)],
    );
    const { id } = await h.createEvent(source, { body: JSON.stringify({ type: "y" }) });
    await h.waitForStatus(id, "filtered");
    expect(await childrenOf(h, id)).toEqual([]);
    expect(await stepOutline(h, id)).toEqual([`${router.id}:running`, `${router.id}:blocked`]);
  });
});

describe("fan-out", () => {
  async function fanOut(extraPath: boolean) {
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/fan` });
    await createNode(h, "filter", { filters: [{ field: "a", operator: "exists" }] }, [
      fromWebhook(webhook.id),
    ]);
    const second = await createNode(
      h,
      "filter",
      { filters: [{ field: "a", operator: "exists" }] },
      [fromWebhook(webhook.id)],
    );
    await createNode(h, "filter", { filters: [{ field: "missing", operator: "exists" }] }, [
      fromNode(second),
    ]);
    if (extraPath) {
      await createNode(h, "filter", { filters: [{ field: "a", operator: "exists" }] }, [
        fromWebhook(webhook.id),
      ]);
    }
    return webhook;
  }

  it("delivers once when only one of the paths reaches its end", async () => {
    const webhook = await fanOut(false);
    const { id } = await h.createEvent(webhook, { body: '{"a":1}' });
    await h.waitForStatus(id, "delivered");
    expect(await childrenOf(h, id)).toEqual([]);
    expect((await h.attempts(id)).map((a) => a.success)).toEqual([true]);
  });

  it("delivers the first ended path as the event and each further one as a child event", async () => {
    const webhook = await fanOut(true);
    const { id } = await h.createEvent(webhook, { body: '{"a":2}' });
    await h.waitForStatus(id, "delivered");
    const [child, ...rest] = await childrenOf(h, id);
    if (!child) throw new Error("no child event");
    expect(rest).toEqual([]);
    expect(child).toMatchObject({ webhookId: webhook.id, parentEventId: id, body: '{"a":2}' });
    await h.waitForStatus(child.id, "delivered");
    // The child skips the graph: its path already went through it.
    expect(await stepOutline(h, child.id)).toEqual([]);
    expect((await h.attempts(child.id)).map((a) => a.success)).toEqual([true]);
  });
});
