import { decideApproval, listMailOfSource } from "@hookflow/db";
import { resumeParkNow } from "@hookflow/queue";
import {
  type LocalSmtpServer,
  type Receiver,
  startLocalSmtpServer,
  startReceiver,
} from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, eventually, fromWebhook, parksOf } from "./pipeline-harness.js";

// Approval mail through a real SMTP server, with a budget of 5 recipients per owner and hour
// and the default cap of 10 recipients per mail.
const LONG_MINUTES = 60 * 24;

let h: WorkerHarness;
let smtp: LocalSmtpServer;
let receiver: Receiver;

beforeAll(async () => {
  smtp = await startLocalSmtpServer({ user: "relay", pass: "s3cret" });
  receiver = await startReceiver();
  h = await startWorkerHarness({
    SMTP_URL: smtp.urlWith("relay", "s3cret"),
    MAIL_RATE_LIMIT_PER_HOUR: "5",
  });
});

afterAll(async () => {
  await h?.close();
  await receiver?.close();
  await smtp?.close();
});

async function gate(notifyEmails: string[]) {
  const webhook = await h.createWebhook({ targetUrl: receiver.url });
  const node = await createNode(
    h,
    "approval",
    { notifyEmails, timeoutMinutes: LONG_MINUTES },
    [fromWebhook(webhook.id)],
    "payout gate",
  );
  return { webhook, node };
}

/** The event's approval mail once its park is marked as mailed (or as nobody to mail). */
async function mailOf(nodeId: string, eventId: string) {
  await eventually("the park marked as notified", async () => {
    const [park] = await parksOf(h, eventId);
    return park?.notifiedAt ? park : undefined;
  });
  const page = await listMailOfSource(
    h.database.db,
    { sourceType: "approval", sourceId: nodeId },
    { page: 1, limit: 100 },
  );
  const mails = page.items.filter((mail) => mail.eventId === eventId);
  expect(mails).toHaveLength(1);
  return mails[0];
}

const delivered = (domain: string) =>
  smtp.received.filter((mail) => mail.to.some((address) => address.endsWith(`@${domain}`)));

describe("approval mail limits", () => {
  it("stops mailing once the owner's hourly budget is spent; the events still wait", async () => {
    const { webhook, node } = await gate(["ops@budget.example", "lead@budget.example"]);
    const ids: string[] = [];
    const mails = [];
    // One after the other, so the budget is spent in this order.
    for (let i = 0; i < 4; i++) {
      const { id } = await h.createEvent(webhook, { body: JSON.stringify({ i }) });
      await h.waitForEvent(id, (e) => e.awaitingApproval);
      ids.push(id);
      mails.push(await mailOf(node.id, id));
    }
    // 2 + 2 recipients fit in 5; the third and fourth mails (2 more each) do not.
    expect(mails.map((mail) => mail?.status)).toEqual(["sent", "sent", "refused", "refused"]);
    expect(mails[2]?.error).toMatch(
      /^rate limited: its owner may mail 5 recipients per hour \(MAIL_RATE_LIMIT_PER_HOUR\)/,
    );
    expect(delivered("budget.example")).toHaveLength(2);

    // A refused mail is final (no retry by the sweeper); the event goes on as usual.
    const refused = ids[3] ?? "";
    expect(await h.event(refused)).toMatchObject({ status: "pending", awaitingApproval: true });
    const decided = await decideApproval(h.database.db, {
      target: { nodeId: node.id, eventId: refused },
      decision: "approved",
      decidedBy: h.ownerId,
      now: new Date(),
    });
    for (const park of decided) await resumeParkNow(h.services.queues, park);
    await h.waitForStatus(refused, "delivered");
  });

  it("refuses a gate's mail to more recipients than MAIL_MAX_RECIPIENTS", async () => {
    // Stored directly, as a node written under a higher cap would be.
    const addresses = Array.from({ length: 11 }, (_, i) => `r${i}@cap.example`);
    const { webhook, node } = await gate(addresses);
    const { id } = await h.createEvent(webhook);
    await h.waitForEvent(id, (e) => e.awaitingApproval);
    const mail = await mailOf(node.id, id);
    expect(mail).toMatchObject({
      status: "refused",
      error: "too many recipients: at most 10 recipients per mail (MAIL_MAX_RECIPIENTS), got 11",
    });
    expect(delivered("cap.example")).toEqual([]);
  });
});
