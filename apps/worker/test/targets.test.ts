import { additionalTargets, replayEvent, targetDeliveries, users } from "@hookflow/db";
import { newPrefixedId } from "@hookflow/domain";
import type { StepEntry } from "@hookflow/queue";
import { type ReceivedRequest, type Receiver, startReceiver, waitFor } from "@hookflow/testing";
import { processDelivery } from "../src/delivery/process-delivery.js";
import {
  expectedHookflowSignature,
  expectedStandardSignature,
  startWorkerHarness,
  TEST_SECRET,
  type WorkerHarness,
} from "./harness.js";
import { startStepWatch } from "./step-watch.js";

let h: WorkerHarness;
let primary: Receiver;
let side: Receiver;

beforeAll(async () => {
  h = await startWorkerHarness();
  primary = await startReceiver();
  side = await startReceiver();
});

afterAll(async () => {
  await h.close();
  await primary.close();
  await side.close();
});

beforeEach(() => {
  primary.respondWith(() => ({ status: 200, body: '{"ok":true}' }));
  side.respondWith((request) =>
    request.path.startsWith("/failing") ? { status: 500, body: "nope" } : { status: 200 },
  );
});

async function createTarget(
  webhookId: string,
  values: Partial<typeof additionalTargets.$inferInsert> & { url: string },
): Promise<string> {
  const id = newPrefixedId("tgt");
  await h.database.db.insert(additionalTargets).values({
    id,
    ownerId: h.ownerId,
    name: `target ${id}`,
    inputNodes: [{ nodeType: "webhook", nodeId: webhookId }],
    ...values,
  });
  return id;
}

function expectSigned(request: ReceivedRequest, messageId: string): void {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers["x-hookflow-signature"]));
  expect(match).not.toBeNull();
  const [, t, v1] = match ?? [];
  expect(v1).toBe(expectedHookflowSignature(TEST_SECRET, String(t), request.body));
  expect(request.headers["webhook-id"]).toBe(messageId);
  expect(request.headers["webhook-signature"]).toBe(
    `v1,${expectedStandardSignature(
      TEST_SECRET,
      messageId,
      String(request.headers["webhook-timestamp"]),
      request.body,
    )}`,
  );
}

const ofEvent = (receiver: Receiver, eventId: string, path: string) =>
  receiver.requests.filter(
    (r) => r.headers["x-hookflow-event-id"] === eventId && r.path.startsWith(path),
  );

describe("additional targets", () => {
  it("fans out: plain, filtered out, templated, and failing with target.failed to the primary", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${primary.url}/primary` });
    const plain = await createTarget(webhook.id, { url: `${side.url}/plain` });
    const filtered = await createTarget(webhook.id, {
      url: `${side.url}/filtered`,
      filters: [{ field: "type", operator: "eq", value: "order.cancelled" }],
    });
    const templated = await createTarget(webhook.id, {
      url: `${side.url}/templated`,
      filters: [{ field: "amount", operator: "gt", value: "10" }],
      payloadTransform:
        '{"order": "{{order}}", "amount": "{{amount}}", "line": "#{{order.id}} for {{amount}}", "same": "{{payload.order.id}}"}',
    });
    const failing = await createTarget(webhook.id, {
      name: "Failing audit",
      url: `${side.url}/failing`,
      maxRetries: 2,
      notifyPrimaryOnFailure: true,
    });
    await createTarget(webhook.id, { url: `${side.url}/inactive`, isActive: false });

    const body = '{"type":"order.created","amount":42.5,"order":{"id":"o-1","items":[1,"two"]}}';
    const { id } = await h.createEvent(webhook, { body });

    // The failing target is tried 1 + maxRetries times, then the primary hears about it.
    await waitFor(() => ofEvent(primary, id, "/primary").length === 2);
    const event = await h.event(id);
    expect(event.status).toBe("delivered");

    const [delivery, notice] = ofEvent(primary, id, "/primary");
    expect(delivery?.body.toString()).toBe(body);
    const noticeBody = JSON.parse(String(notice?.body));
    expect(noticeBody).toEqual({
      type: "target.failed",
      eventId: id,
      webhookId: webhook.id,
      target: { id: failing, name: "Failing audit", url: `${side.url}/failing` },
      attempts: 3,
      lastStatusCode: 500,
      lastError: "HTTP 500",
      failedAt: expect.any(String),
    });
    if (notice) expectSigned(notice, `${id}.target-failed.${failing}`);

    const [plainRequest] = ofEvent(side, id, "/plain");
    expect(plainRequest?.body.toString()).toBe(body);
    if (plainRequest) expectSigned(plainRequest, id);

    const [templatedRequest] = ofEvent(side, id, "/templated");
    expect(JSON.parse(String(templatedRequest?.body))).toEqual({
      order: { id: "o-1", items: [1, "two"] },
      amount: 42.5,
      line: "#o-1 for 42.5",
      same: "o-1",
    });
    if (templatedRequest) expectSigned(templatedRequest, id);

    expect(ofEvent(side, id, "/failing")).toHaveLength(3);
    expect(ofEvent(side, id, "/filtered")).toHaveLength(0);
    expect(ofEvent(side, id, "/inactive")).toHaveLength(0);

    const attempts = await h.attempts(id);
    const failingAttempts = attempts.filter((a) => a.targetId === failing);
    expect(failingAttempts.map((a) => [a.attempt, a.isAdditionalTarget, a.success])).toEqual([
      [1, true, false],
      [2, true, false],
      [3, true, false],
    ]);
    expect(attempts.filter((a) => a.targetId === plain).map((a) => a.success)).toEqual([true]);
    expect(attempts.filter((a) => a.targetId === templated).map((a) => a.success)).toEqual([true]);
    expect(attempts.filter((a) => !a.isAdditionalTarget)).toHaveLength(1);
    const rows = await h.database.db.query.targetDeliveries.findMany({
      where: (t, { eq }) => eq(t.eventId, id),
    });
    expect(rows.map((r) => r.targetId)).not.toContain(filtered);
    const failingRow = rows.find((r) => r.targetId === failing);
    expect(failingRow).toMatchObject({ status: "failed", notifyStatus: "sent", attemptCount: 3 });
    const health = await h.database.db.query.additionalTargets.findFirst({
      where: (t, { eq }) => eq(t.id, failing),
    });
    expect(health?.consecutiveFailures).toBe(1);
    // Exactly once: nothing more arrives at the primary once everything settled.
    await h.worker.sweepNow();
    expect(ofEvent(primary, id, "/primary")).toHaveLength(2);
  });

  it("never lets a slow target hold the primary, and keeps the event's status the primary's", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${primary.url}/primary` });
    const slow = await createTarget(webhook.id, { url: `${side.url}/slow` });
    side.respondWith((request) =>
      request.path === "/slow" ? { status: 200, delayMs: 2000 } : { status: 200 },
    );
    const { id } = await h.createEvent(webhook);
    await h.waitForStatus(id, "delivered");
    // The target's request is still in flight (its answer takes 2 s): the primary did not wait.
    const row = await h.database.db.query.targetDeliveries.findFirst({
      where: (t, { and, eq }) => and(eq(t.eventId, id), eq(t.targetId, slow)),
    });
    expect(row?.status).toBe("pending");
    await waitFor(async () => {
      const done = await h.database.db.query.targetDeliveries.findFirst({
        where: (t, { eq }) => eq(t.eventId, id),
      });
      return done?.status === "delivered";
    });
    expect((await h.event(id)).status).toBe("delivered");

    // A failing primary fails the event even when its target succeeds.
    primary.respondWith(() => ({ status: 410 }));
    side.respondWith(() => ({ status: 200 }));
    const second = await h.createEvent(webhook);
    await h.waitForStatus(second.id, "failed");
    await waitFor(async () => {
      const done = await h.database.db.query.targetDeliveries.findFirst({
        where: (t, { eq }) => eq(t.eventId, second.id),
      });
      return done?.status === "delivered";
    });
    expect((await h.event(second.id)).status).toBe("failed");
  });
});

describe("additional targets on replay", () => {
  it("gives each target a fresh run and budget when the event is replayed, and only then", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${primary.url}/primary` });
    const target = await createTarget(webhook.id, { url: `${side.url}/replayed`, maxRetries: 0 });
    const { id } = await h.createEvent(webhook);
    const delivered = async () =>
      (
        await h.database.db.query.targetDeliveries.findFirst({
          where: (t, { eq }) => eq(t.eventId, id),
        })
      )?.status === "delivered";
    await waitFor(delivered);
    await h.waitForStatus(id, "delivered");
    // A redelivered job of the same run finds the target started: nothing is sent again.
    await processDelivery(h.services, { eventId: id, webhookId: webhook.id });
    expect(ofEvent(side, id, "/replayed")).toHaveLength(1);

    const reopened = await replayEvent(h.database.db, id, new Date());
    expect(reopened).toBeDefined();
    await h.enqueue(webhook, id, webhook.id);
    await waitFor(() => ofEvent(side, id, "/replayed").length === 2);
    await waitFor(delivered);
    const attempts = (await h.attempts(id)).filter((a) => a.targetId === target);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 1]);
  });
});

describe("additional target steps", () => {
  it("are published on the event's stream with the target's id", async () => {
    const { hub, close } = startStepWatch(h);
    try {
      const webhook = await h.createWebhook({ targetUrl: `${primary.url}/primary` });
      const target = await createTarget(webhook.id, {
        name: "Audit log",
        url: `${side.url}/steps`,
      });
      const { id } = await h.createEvent(webhook, { enqueue: false });
      const seen: StepEntry[] = [];
      const stop = hub.watch(id, {}, (entry) => seen.push(entry));
      try {
        await h.enqueue(webhook, id, webhook.id);
        const targetSteps = () =>
          seen.flatMap(({ message }) =>
            message.kind === "step" && message.step.nodeType === "additionalTarget"
              ? [message.step]
              : [],
          );
        await waitFor(() => targetSteps().length === 2);
        expect(targetSteps()).toEqual([
          expect.objectContaining({ nodeId: target, nodeName: "Audit log", status: "running" }),
          expect.objectContaining({
            nodeId: target,
            nodeName: "Audit log",
            status: "success",
            statusCode: 200,
          }),
        ]);
      } finally {
        stop();
      }
    } finally {
      await close();
    }
  });
});

describe("additional targets whose job was lost", () => {
  it("are found by the sweeper and delivered", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${primary.url}/primary` });
    const target = await createTarget(webhook.id, { url: `${side.url}/swept` });
    // An event delivered to its primary whose target row was committed but never enqueued (a
    // crash between the fan-out's insert and its enqueue).
    const { id } = await h.createEvent(webhook, { enqueue: false });
    await h.database.db.insert(targetDeliveries).values({
      eventId: id,
      targetId: target,
      webhookId: webhook.id,
      run: 0,
      priority: webhook.priority,
      body: '{"swept":true}',
      nextAttemptAt: new Date(Date.now() - 60_000),
    });
    await h.worker.sweepNow();
    await waitFor(() => ofEvent(side, id, "/swept").length === 1);
    expect(ofEvent(side, id, "/swept")[0]?.body.toString()).toBe('{"swept":true}');
  });
});

describe("additional targets across owners", () => {
  it("never delivers to a target of another owner, even one stored linked to the webhook", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${primary.url}/primary` });
    const stranger = newPrefixedId("usr");
    await h.database.db
      .insert(users)
      .values({ id: stranger, email: `${stranger.toLowerCase()}@example.test`, passwordHash: "x" });
    const theirs = newPrefixedId("tgt");
    await h.database.db.insert(additionalTargets).values({
      id: theirs,
      ownerId: stranger,
      name: "tap",
      url: `${side.url}/tap`,
      inputNodes: [{ nodeType: "webhook", nodeId: webhook.id }],
    });
    const mine = await createTarget(webhook.id, { url: `${side.url}/mine` });
    const { id } = await h.createEvent(webhook);
    await waitFor(async () => {
      const row = await h.database.db.query.targetDeliveries.findFirst({
        where: (t, { and, eq }) => and(eq(t.eventId, id), eq(t.targetId, mine)),
      });
      return row?.status === "delivered";
    });
    const rows = await h.database.db.query.targetDeliveries.findMany({
      where: (t, { eq }) => eq(t.eventId, id),
    });
    expect(rows.map((r) => r.targetId)).toEqual([mine]);
    expect(ofEvent(side, id, "/tap")).toHaveLength(0);
  });
});

describe("additional targets behind the private-address guard", () => {
  let strict: WorkerHarness;
  beforeAll(async () => {
    strict = await startWorkerHarness({ ALLOW_PRIVATE_TARGETS: "false" });
  });
  afterAll(async () => {
    await strict.close();
  });

  it("refuses a target on a private address without a request or retries", async () => {
    const webhook = await strict.createWebhook({ targetUrl: "" });
    const id = newPrefixedId("tgt");
    await strict.database.db.insert(additionalTargets).values({
      id,
      ownerId: strict.ownerId,
      name: "metadata",
      url: `${side.url}/private`,
      maxRetries: 3,
      inputNodes: [{ nodeType: "webhook", nodeId: webhook.id }],
    });
    const event = await strict.createEvent(webhook);
    await waitFor(async () => (await strict.attempts(event.id)).length === 1);
    const [attempt] = await strict.attempts(event.id);
    expect(attempt).toMatchObject({ targetId: id, isAdditionalTarget: true, success: false });
    expect(attempt?.error).toMatch(/private|refused|not allowed/i);
    const row = await strict.database.db.query.targetDeliveries.findFirst({
      where: (t, { eq }) => eq(t.eventId, event.id),
    });
    expect(row?.status).toBe("failed");
    expect(side.requests.filter((r) => r.path === "/private")).toHaveLength(0);
  });
});
