import { cancelEvent, decideApproval, listMailOfSource } from "@hookflow/db";
import { verifyApprovalLinkToken } from "@hookflow/domain";
import { jobIdOf, resumeParkNow } from "@hookflow/queue";
import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, eventually, fromWebhook, parksOf, stepOutline } from "./pipeline-harness.js";

// HOOKFLOW_DELAY_SCALE is 0.001 in the harness: a 1-minute approval timeout lasts 60 ms, so the
// gates that wait for a person use a long timeout.
const LONG_MINUTES = 60 * 24;

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

async function gate(settings: {
  timeoutMinutes: number;
  autoActionOnTimeout?: "approve" | "reject";
}) {
  const webhook = await h.createWebhook({ targetUrl: receiver.url });
  const node = await createNode(
    h,
    "approval",
    { notifyEmails: ["ops@example.com", "lead@example.com"], ...settings },
    [fromWebhook(webhook.id)],
    "payout gate",
  );
  return { webhook, node };
}

/** What the API's approve and reject routes do: decide the waiting path, then wake its job. */
async function decide(nodeId: string, eventId: string, decision: "approved" | "rejected") {
  const decided = await decideApproval(h.database.db, {
    target: { nodeId, eventId },
    decision,
    decidedBy: h.ownerId,
    now: new Date(),
  });
  expect(decided).toHaveLength(1);
  for (const park of decided) {
    await resumeParkNow(h.services.queues, {
      eventId: park.eventId,
      webhookId: park.webhookId,
      parkId: park.parkId,
      priority: park.priority,
    });
  }
}

describe("approval nodes", () => {
  it("park the event and mail notifyEmails signed approve and reject links", async () => {
    const { webhook, node } = await gate({ timeoutMinutes: LONG_MINUTES });
    const { id } = await h.createEvent(webhook, { body: '{"amount":100}' });
    const waiting = await h.waitForEvent(id, (e) => e.awaitingApproval);
    expect(waiting).toMatchObject({
      status: "pending",
      parkedAt: { nodeType: "approval", nodeId: node.id },
    });
    const [park] = await parksOf(h, id);
    if (!park) throw new Error("no park");
    const mail = await eventually("the approval mail", async () => {
      const page = await listMailOfSource(
        h.database.db,
        { sourceType: "approval", sourceId: node.id },
        { page: 1, limit: 10 },
      );
      return page.items.find((row) => row.eventId === id);
    });
    expect(mail.to).toEqual(["ops@example.com", "lead@example.com"]);
    // Recorded as mailed, so the sweeper does not mail it again.
    await eventually("the park marked as mailed", async () => {
      const [marked] = await parksOf(h, id);
      return marked?.notifiedAt ? marked : undefined;
    });
    const tokens = [...mail.text.matchAll(/\/api\/approvals\/([A-Za-z0-9_.-]+)/g)].map((m) => m[1]);
    const claims = tokens.map((token) =>
      verifyApprovalLinkToken(h.services.config.secret, token, Date.now()),
    );
    expect(
      claims.map((c) => (c.ok ? `${c.claims.parkId}:${c.claims.decision}` : c.reason)).sort(),
    ).toEqual([`${park.id}:approved`, `${park.id}:rejected`]);
    await decide(node.id, id, "rejected");
    await h.waitForStatus(id, "filtered");
  });

  it("deliver the event once approved", async () => {
    const { webhook, node } = await gate({ timeoutMinutes: LONG_MINUTES });
    const { id } = await h.createEvent(webhook, { body: '{"amount":5}' });
    await h.waitForEvent(id, (e) => e.awaitingApproval);
    await decide(node.id, id, "approved");
    const event = await h.waitForStatus(id, "delivered");
    expect(event.awaitingApproval).toBe(false);
    expect(await stepOutline(h, id)).toEqual([`${node.id}:running`, `${node.id}:success`]);
    const [park] = await parksOf(h, id);
    expect(park).toMatchObject({ status: "approved", decidedBy: h.ownerId });
    expect(park?.resolvedAt).not.toBeNull();
  });

  it("filter the event once rejected, with the rejection in its step", async () => {
    const { webhook, node } = await gate({ timeoutMinutes: LONG_MINUTES });
    const { id } = await h.createEvent(webhook);
    await h.waitForEvent(id, (e) => e.awaitingApproval);
    await decide(node.id, id, "rejected");
    await h.waitForStatus(id, "filtered");
    const steps = await stepOutline(h, id);
    expect(steps).toEqual([`${node.id}:running`, `${node.id}:blocked`]);
    expect(await h.attempts(id)).toHaveLength(0);
  });

  it.each([
    ["approve", "delivered", "approved"],
    ["reject", "filtered", "rejected"],
  ] as const)(
    "apply autoActionOnTimeout %s when nobody decides in time",
    async (action, status, parkStatus) => {
      const { webhook } = await gate({ timeoutMinutes: 1, autoActionOnTimeout: action });
      const { id } = await h.createEvent(webhook);
      await h.waitForStatus(id, status);
      const [park] = await parksOf(h, id);
      expect(park).toMatchObject({ status: parkStatus, decidedBy: "timeout" });
    },
  );

  it("continue a decision whose job Redis lost: the sweeper resumes the park", async () => {
    const { webhook, node } = await gate({ timeoutMinutes: LONG_MINUTES });
    const { id } = await h.createEvent(webhook);
    await h.waitForEvent(id, (e) => e.awaitingApproval);
    const [park] = await parksOf(h, id);
    if (!park) throw new Error("no park");
    const jobId = jobIdOf({ eventId: id, webhookId: webhook.id, parkId: park.id });
    await eventually("the gate's timeout job", async () => {
      for (const queue of h.services.queues.values()) {
        if ((await queue.getJobState(jobId)) === "delayed" && (await queue.remove(jobId)) === 1) {
          return true;
        }
      }
      return undefined;
    });
    // Decided in the database, as the API does, but its job is gone.
    await decideApproval(h.database.db, {
      target: { nodeId: node.id, eventId: id },
      decision: "approved",
      decidedBy: h.ownerId,
      now: new Date(),
    });
    await h.waitForStatus(id, "delivered", 20_000);
  });

  it("cancel a waiting event's parks when the event is cancelled", async () => {
    const { webhook } = await gate({ timeoutMinutes: LONG_MINUTES });
    const { id } = await h.createEvent(webhook);
    await h.waitForEvent(id, (e) => e.awaitingApproval);
    expect(await cancelEvent(h.database.db, id, new Date())).toBeDefined();
    const [park] = await parksOf(h, id);
    expect(park).toMatchObject({ status: "cancelled" });
    expect(park?.resolvedAt).not.toBeNull();
    expect((await h.event(id)).status).toBe("cancelled");
  });
});
