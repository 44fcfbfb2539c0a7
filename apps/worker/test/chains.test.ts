import { users } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { type ReceivedRequest, type Receiver, startReceiver, waitFor } from "@hookflow/testing";
import { processDelivery } from "../src/delivery/process-delivery.js";
import {
  expectedHookflowSignature,
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

beforeEach(() => {
  receiver.respondWith((request) => {
    if (request.path.startsWith("/origin")) return { status: 200, body: '{"w":1,"ok":true}' };
    if (request.path.startsWith("/step-a")) return { status: 201, body: "plain text" };
    if (request.path.startsWith("/fail")) return { status: 410 };
    return { status: 200 };
  });
});

const at = (path: string) => receiver.requests.filter((r) => r.path === path);
const decoded = (request: ReceivedRequest | undefined, header: string) =>
  JSON.parse(Buffer.from(String(request?.headers[header]), "base64").toString("utf8"));

function childrenOf(parentEventId: string) {
  return h.database.db.query.events.findMany({
    where: (e, { eq }) => eq(e.parentEventId, parentEventId),
  });
}

describe("chains", () => {
  it("walks a three-webhook chain with the chain payload, headers and signatures", async () => {
    const tag = newId("event");
    const b = await h.createWebhook({ targetUrl: `${receiver.url}/step-b-${tag}` });
    const a = await h.createWebhook({ targetUrl: `${receiver.url}/step-a-${tag}` });
    const w = await h.createWebhook({
      targetUrl: `${receiver.url}/origin-${tag}`,
      chainWebhookIds: [a.id, b.id],
    });
    const original = { type: "order.created", order: { id: "o-7" } };
    const root = await h.createEvent(w, { body: JSON.stringify(original) });

    await waitFor(() => at(`/step-b-${tag}`).length === 1);
    expect((await h.event(root.id)).status).toBe("delivered");

    const [stepA] = at(`/step-a-${tag}`);
    expect(JSON.parse(String(stepA?.body))).toEqual({
      original,
      previous: { statusCode: 200, body: { w: 1, ok: true } },
    });
    expect(stepA?.headers["x-hookflow-chain-step"]).toBe("1");
    expect(decoded(stepA, "x-hookflow-chain-original")).toEqual(original);
    expect(decoded(stepA, "x-hookflow-chain-previous")).toEqual({
      statusCode: 200,
      body: { w: 1, ok: true },
    });
    const signature = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(
      String(stepA?.headers["x-hookflow-signature"]),
    );
    if (stepA && signature) {
      expect(signature[2]).toBe(
        expectedHookflowSignature(TEST_SECRET, String(signature[1]), stepA.body),
      );
    } else {
      throw new Error("step 1 was not signed");
    }

    const [stepB] = at(`/step-b-${tag}`);
    expect(JSON.parse(String(stepB?.body))).toEqual({
      original,
      previous: { statusCode: 201, body: "plain text" },
    });
    expect(stepB?.headers["x-hookflow-chain-step"]).toBe("2");
    expect(decoded(stepB, "x-hookflow-chain-original")).toEqual(original);
    expect(decoded(stepB, "x-hookflow-chain-previous")).toEqual({
      statusCode: 201,
      body: "plain text",
    });

    const [first] = await childrenOf(root.id);
    expect(first).toMatchObject({
      webhookId: a.id,
      chainStep: 1,
      chainOriginEventId: root.id,
      rootEventId: root.id,
      forwardDepth: 1,
    });
    const [second] = await childrenOf(first?.id ?? "");
    expect(second).toMatchObject({ webhookId: b.id, chainStep: 2, chainOriginEventId: root.id });
    await h.waitForStatus(second?.id ?? "", "delivered");

    // A job redelivered for an already delivered step (a worker that died after recording it)
    // continues the chain again: nothing is created twice.
    const again = await processDelivery(h.services, { eventId: root.id, webhookId: w.id });
    expect(again.outcome).toBe("settled");
    const againA = await processDelivery(h.services, { eventId: first?.id ?? "", webhookId: a.id });
    expect(againA.outcome).toBe("settled");
    await h.worker.sweepNow();
    expect(await childrenOf(root.id)).toHaveLength(1);
    expect(await childrenOf(first?.id ?? "")).toHaveLength(1);
    expect(at(`/step-b-${tag}`)).toHaveLength(1);
  });

  it("stops at a failed step: later steps never run", async () => {
    const tag = newId("event");
    const b = await h.createWebhook({ targetUrl: `${receiver.url}/after-${tag}` });
    const a = await h.createWebhook({ targetUrl: `${receiver.url}/fail-${tag}`, maxRetries: 0 });
    const w = await h.createWebhook({
      targetUrl: `${receiver.url}/origin-${tag}`,
      chainWebhookIds: [a.id, b.id],
    });
    const root = await h.createEvent(w);
    await waitFor(async () => (await childrenOf(root.id)).length === 1);
    const [first] = await childrenOf(root.id);
    await h.waitForStatus(first?.id ?? "", "failed");
    expect(at(`/fail-${tag}`)).toHaveLength(1);
    expect(await childrenOf(first?.id ?? "")).toHaveLength(0);
    expect(at(`/after-${tag}`)).toHaveLength(0);
  });

  it("never chains into another owner's webhook", async () => {
    const tag = newId("event");
    const stranger = newId("user");
    await h.database.db
      .insert(users)
      .values({ id: stranger, email: `${stranger.toLowerCase()}@example.test`, passwordHash: "x" });
    const theirs = await h.createWebhook({
      ownerId: stranger,
      targetUrl: `${receiver.url}/theirs-${tag}`,
    });
    const w = await h.createWebhook({
      targetUrl: `${receiver.url}/origin-${tag}`,
      chainWebhookIds: [theirs.id],
    });
    const root = await h.createEvent(w);
    await h.waitForStatus(root.id, "delivered");
    // A redelivered job gives the chain another chance to (wrongly) continue.
    const again = await processDelivery(h.services, { eventId: root.id, webhookId: w.id });
    expect(again.outcome).toBe("settled");
    await h.worker.sweepNow();
    expect(await childrenOf(root.id)).toHaveLength(0);
    expect(at(`/theirs-${tag}`)).toHaveLength(0);
  });
});

describe("chains under the forwarding limits", () => {
  let shallow: WorkerHarness;
  beforeAll(async () => {
    shallow = await startWorkerHarness({ GRAPH_MAX_FORWARD_DEPTH: "1" });
  });
  afterAll(async () => {
    await shallow.close();
  });

  it("stops a chain at GRAPH_MAX_FORWARD_DEPTH", async () => {
    const tag = newId("event");
    const b = await shallow.createWebhook({ targetUrl: `${receiver.url}/deep-b-${tag}` });
    const a = await shallow.createWebhook({ targetUrl: `${receiver.url}/deep-a-${tag}` });
    const w = await shallow.createWebhook({
      targetUrl: `${receiver.url}/origin-${tag}`,
      chainWebhookIds: [a.id, b.id],
    });
    const root = await shallow.createEvent(w);
    const children = (parentEventId: string) =>
      shallow.database.db.query.events.findMany({
        where: (e, { eq }) => eq(e.parentEventId, parentEventId),
      });
    await waitFor(async () => (await children(root.id)).length === 1);
    const [first] = await children(root.id);
    await shallow.waitForStatus(first?.id ?? "", "delivered");
    // The step's own job continues the chain once it is delivered; run it again to be sure it
    // has had its chance, and that the limit refuses step 2 every time.
    await processDelivery(shallow.services, { eventId: first?.id ?? "", webhookId: a.id });
    expect(await children(first?.id ?? "")).toHaveLength(0);
    expect(at(`/deep-b-${tag}`)).toHaveLength(0);
  });
});
