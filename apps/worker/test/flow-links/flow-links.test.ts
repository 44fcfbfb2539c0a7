import { users } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { type FamilyConfig, flowLinkInputs } from "@hookflow/pipeline";
import { type Receiver, startReceiver, waitUntil } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, fromWebhook, recordedSteps } from "../pipeline/pipeline-harness.js";

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

async function link(config: FamilyConfig<"flowLink">) {
  return createNode(h, "flowLink", config, flowLinkInputs(config), "link");
}

const childrenOf = (eventId: string) =>
  h.database.db.query.events.findMany({ where: (e, { eq }) => eq(e.parentEventId, eventId) });

async function setConsent(webhookId: string, acceptsInternalCalls: boolean): Promise<void> {
  await h.services.db
    .sql`update webhooks set accepts_internal_calls = ${acceptsInternalCalls} where id = ${webhookId}`;
  await h.services.redis.publish(
    h.services.keys.webhookChangedChannel,
    JSON.stringify({ webhookId }),
  );
}

describe("flow links", () => {
  it("run a consenting webhook's pipeline on a transform's output, as a child event", async () => {
    const source = await h.createWebhook({ targetUrl: `${receiver.url}/source` });
    const target = await h.createWebhook({
      targetUrl: `${receiver.url}/linked`,
      acceptsInternalCalls: true,
    });
    const transform = await createNode(
      h,
      "transform",
      { transformMode: "jq", template: "{order: .id}" },
      [fromWebhook(source.id)],
    );
    const flow = await link({
      sourceNodeType: "transform",
      sourceNodeId: transform.id,
      webhookId: target.id,
      mode: "async",
    });
    const { id } = await h.createEvent(source, { body: JSON.stringify({ id: 7 }) });
    await h.waitForStatus(id, "delivered");
    const child = await waitUntil(async () => (await childrenOf(id))[0]);
    expect(child).toMatchObject({ webhookId: target.id, body: '{"order":7}', forwardDepth: 1 });
    await h.waitForStatus(child.id, "delivered");
    // The source still delivers its own output; the link adds the target's delivery.
    expect(bodiesAt("/source")).toEqual([{ order: 7 }]);
    expect(bodiesAt("/linked")).toEqual([{ order: 7 }]);
    const steps = (await recordedSteps(h, id)).map((s) => `${s.nodeType}:${s.status}`);
    expect(steps).toEqual(expect.arrayContaining(["flowLink:running", "flowLink:success"]));
    expect((await recordedSteps(h, id)).some((s) => s.nodeId === flow.id)).toBe(true);
  });

  it("sync: the link's step records the target pipeline's result", async () => {
    const source = await h.createWebhook({ targetUrl: `${receiver.url}/sync-source` });
    const target = await h.createWebhook({
      targetUrl: `${receiver.url}/sync-target`,
      acceptsInternalCalls: true,
    });
    await createNode(h, "transform", { transformMode: "jq", template: "{seen: .n}" }, [
      fromWebhook(target.id),
    ]);
    const flow = await link({
      sourceNodeType: "webhook",
      sourceNodeId: source.id,
      webhookId: target.id,
      mode: "sync",
    });
    const { id } = await h.createEvent(source, { body: JSON.stringify({ n: 3 }) });
    await h.waitForStatus(id, "delivered");
    const result = await waitUntil(async () =>
      (await recordedSteps(h, id)).find((s) => s.nodeId === flow.id && s.lastPayload != null),
    );
    expect(result).toMatchObject({ nodeType: "flowLink", status: "success" });
    expect(result.lastPayload).toMatchObject({ status: "delivered", output: { seen: 3 } });
    // A webhook whose only successor is a link still delivers its own event.
    expect(bodiesAt("/sync-source")).toEqual([{ n: 3 }]);
  });

  it("blocks the link's runs once consent is withdrawn; the source still delivers", async () => {
    const source = await h.createWebhook({ targetUrl: `${receiver.url}/withdrawn-source` });
    const target = await h.createWebhook({
      targetUrl: `${receiver.url}/withdrawn`,
      acceptsInternalCalls: true,
    });
    await link({
      sourceNodeType: "webhook",
      sourceNodeId: source.id,
      webhookId: target.id,
      mode: "async",
    });
    await setConsent(target.id, false);
    const { id } = await h.createEvent(source, { body: JSON.stringify({ n: 1 }) });
    await h.waitForStatus(id, "delivered");
    const blocked = await waitUntil(async () =>
      (await recordedSteps(h, id)).find((s) => s.nodeType === "forward" && s.status === "blocked"),
    );
    expect(blocked.error).toContain("does not accept internal calls");
    expect(await childrenOf(id)).toEqual([]);
    expect(bodiesAt("/withdrawn")).toEqual([]);
    expect(bodiesAt("/withdrawn-source")).toEqual([{ n: 1 }]);
  });

  it("blocks a link to another owner's webhook at run time (a stale graph)", async () => {
    const source = await h.createWebhook({ targetUrl: `${receiver.url}/stale-source` });
    const otherOwner = newId("user");
    await h.database.db.insert(users).values({
      id: otherOwner,
      email: `${otherOwner.toLowerCase()}@example.test`,
      passwordHash: "unusable",
    });
    const foreign = await h.createWebhook({
      ownerId: otherOwner,
      targetUrl: `${receiver.url}/foreign`,
      acceptsInternalCalls: true,
    });
    await link({
      sourceNodeType: "webhook",
      sourceNodeId: source.id,
      webhookId: foreign.id,
      mode: "async",
    });
    const { id } = await h.createEvent(source, { body: "{}" });
    await h.waitForStatus(id, "delivered");
    const blocked = await waitUntil(async () =>
      (await recordedSteps(h, id)).find((s) => s.nodeType === "forward" && s.status === "blocked"),
    );
    expect(blocked.error).toContain("belongs to another owner");
    expect(bodiesAt("/foreign")).toEqual([]);
  });
});
