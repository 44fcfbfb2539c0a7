import { listMailOfSource } from "@hookflow/db";
import { verifyApprovalLinkToken } from "@hookflow/domain";
import { createMailer } from "@hookflow/mail";
import { createLogger } from "@hookflow/observability";
import {
  type ApprovalNotifier,
  createApprovalNotifier,
} from "../../src/pipeline/approval-notifier.js";
import { sweepApprovalMail } from "../../src/sweeper/sweep-approval-mail.js";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, eventually, fromWebhook, parksOf } from "../pipeline/pipeline-harness.js";

// The sweeper never ticks by itself here (`sweep` runs it), and takes approval parks as soon as
// they exist (no grace): what it mails is what the test made it find.
const LONG_MINUTES = 60 * 24;

let h: WorkerHarness;

beforeAll(async () => {
  h = await startWorkerHarness({}, { intervalMs: 3_600_000, graceMs: 0 });
});

afterAll(async () => {
  await h.close();
});

/** One sweep of the worker's sweeper (its lease is freed first, so it runs). */
async function sweep(): Promise<number> {
  await h.services.redis.del(`${h.services.config.redisPrefix}:lease:delivery-sweeper`);
  return h.worker.sweepNow();
}

async function gate() {
  const webhook = await h.createWebhook({ targetUrl: "http://127.0.0.1:9/unused" });
  const node = await createNode(
    h,
    "approval",
    { notifyEmails: ["ops@example.com"], timeoutMinutes: LONG_MINUTES },
    [fromWebhook(webhook.id)],
    "refund gate",
  );
  return { webhook, node };
}

async function mailsOf(nodeId: string, eventId: string) {
  const page = await listMailOfSource(
    h.database.db,
    { sourceType: "approval", sourceId: nodeId },
    { page: 1, limit: 50 },
  );
  return page.items.filter((mail) => mail.eventId === eventId);
}

async function onlyPark(eventId: string) {
  const parks = await parksOf(h, eventId);
  expect(parks).toHaveLength(1);
  const [park] = parks;
  if (!park) throw new Error("no park");
  return park;
}

/** Runs `body` while the worker's approval mail is `notifier`'s; `notify` resolves once it ran. */
async function withNotifier<T>(
  notifier: ApprovalNotifier,
  body: (notified: Promise<void>) => Promise<T>,
): Promise<T> {
  const original = h.services.pipeline.approvals;
  let ran: () => void = () => {};
  const notified = new Promise<void>((resolve) => {
    ran = resolve;
  });
  h.services.pipeline.approvals = {
    ...notifier,
    notify: async (input, parks) => {
      try {
        await notifier.notify(input, parks);
      } finally {
        ran();
      }
    },
  };
  try {
    return await body(notified);
  } finally {
    h.services.pipeline.approvals = original;
  }
}

/** The worker's notifier as if the worker stopped between parking a path and mailing it. */
function stoppedNotifier(): ApprovalNotifier {
  return {
    ...h.services.pipeline.approvals,
    notify: async () => {
      throw new Error("the worker stopped before mailing");
    },
  };
}

describe("approval mail the worker never sent", () => {
  it("is sent once by the sweeper when the worker stopped between parking and mailing", async () => {
    const { webhook, node } = await gate();
    const stopped = stoppedNotifier();
    const id = await withNotifier(stopped, async (notified) => {
      const { id } = await h.createEvent(webhook, { body: '{"refund":70}' });
      await h.waitForEvent(id, (e) => e.awaitingApproval);
      await notified;
      return id;
    });
    const park = await onlyPark(id);
    expect(park.notifiedAt).toBeNull();
    expect(await mailsOf(node.id, id)).toHaveLength(0);

    expect(await sweep()).toBe(1);
    const mails = await mailsOf(node.id, id);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toEqual(["ops@example.com"]);
    const tokens = [...(mails[0]?.text ?? "").matchAll(/\/api\/approvals\/([A-Za-z0-9_.-]+)/g)];
    const parkIds = tokens.map((m) => {
      const claims = verifyApprovalLinkToken(h.services.config.secret, m[1] ?? "", Date.now());
      return claims.ok ? claims.claims.parkId : claims.reason;
    });
    expect(parkIds).toEqual([park.id, park.id]);
    const after = await onlyPark(id);
    expect(after.notifiedAt).not.toBeNull();
    expect(after.notifyLeaseUntil).toBeNull();

    expect(await sweep()).toBe(0);
    expect(await mailsOf(node.id, id)).toHaveLength(1);
  });

  it("sends at most 10 owed mails per pass, so each goes out within its claim", async () => {
    const { webhook, node } = await gate();
    const stopped = stoppedNotifier();
    const ids = await withNotifier(stopped, async () => {
      const created: string[] = [];
      for (let n = 0; n < 12; n++) {
        const { id } = await h.createEvent(webhook, { body: `{"refund":${n}}` });
        await h.waitForEvent(id, (e) => e.awaitingApproval);
        created.push(id);
      }
      return created;
    });
    // The park is written with the event's flags: every one exists, unmailed.
    for (const id of ids) expect((await onlyPark(id)).notifiedAt).toBeNull();
    expect(await sweep()).toBe(10);
    expect(await sweep()).toBe(2);
    for (const id of ids) expect(await mailsOf(node.id, id)).toHaveLength(1);
  });

  it("is not sent again for a park its worker mailed", async () => {
    const { webhook, node } = await gate();
    const { id } = await h.createEvent(webhook);
    await h.waitForEvent(id, (e) => e.awaitingApproval);
    await eventually("the worker's mail recorded", async () =>
      (await onlyPark(id)).notifiedAt === null ? undefined : true,
    );
    expect(await mailsOf(node.id, id)).toHaveLength(1);
    await sweep();
    await sweep();
    expect(await mailsOf(node.id, id)).toHaveLength(1);
  });

  it("is retried by the sweeper after a failed send, once the sender's claim runs out", async () => {
    const { webhook, node } = await gate();
    const logger = createLogger({ level: "silent", role: "worker" });
    // A real SMTP send to a port where nothing listens: the mailer records it as failed.
    const mailer = createMailer({
      smtpUrl: "smtp://127.0.0.1:1",
      from: h.services.config.mailFrom,
      db: h.database.db,
      logger,
      maxRecipients: 10,
      quota: null,
    });
    const unreachable = createApprovalNotifier({
      db: h.services.db,
      mailer,
      secret: h.services.config.secret,
      publicBaseUrl: h.services.config.publicBaseUrl,
      logger,
    });
    try {
      const id = await withNotifier(unreachable, async (notified) => {
        const { id } = await h.createEvent(webhook);
        await h.waitForEvent(id, (e) => e.awaitingApproval);
        await notified;
        return id;
      });
      const failed = await mailsOf(node.id, id);
      expect(failed.map((mail) => mail.status)).toEqual(["failed"]);
      const park = await onlyPark(id);
      expect(park.notifiedAt).toBeNull();
      const leaseUntil = park.notifyLeaseUntil;
      if (!leaseUntil) throw new Error("the failed send left no claim");

      // While the claim lasts nobody sends again.
      await sweep();
      expect(await mailsOf(node.id, id)).toHaveLength(1);

      // Once it ran out (the sweeper's clock moved past it), the sweeper sends.
      const later = new Date(leaseUntil.getTime() + 1);
      const swept = await sweepApprovalMail({
        db: h.database.db,
        graphs: h.services.pipeline.graphs,
        approvals: h.services.pipeline.approvals,
        createdBefore: later,
        now: later,
        limit: 100,
      });
      expect(swept).toEqual({ mailed: 1, retrying: 0 });
      const mails = await mailsOf(node.id, id);
      expect(mails.map((mail) => mail.status).sort()).toEqual(["failed", "outbox"]);
      expect((await onlyPark(id)).notifiedAt).not.toBeNull();
    } finally {
      mailer.close();
    }
  });
});
