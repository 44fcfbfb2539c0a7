import { listMailOfSource } from "@hookflow/db";
import { createLogger } from "@hookflow/observability";
import {
  createTestDatabase,
  createTestRedisPrefix,
  type LocalSmtpServer,
  startLocalSmtpServer,
  type TestDatabase,
  type TestRedisPrefix,
} from "@hookflow/testing";
import { Redis } from "ioredis";
import { createRedisMailQuota, type MailQuota } from "../src/mail-quota.js";
import { createMailer, type Mailer } from "../src/mailer.js";
import { sendApprovalRequest } from "../src/send-approval-request.js";

const logger = createLogger({ level: "silent", role: "test" });
const SECRET = "mail-test-secret-mail-test-secret-123";

const recipients = (count: number, domain = "example.com") =>
  Array.from({ length: count }, (_, i) => `r${i}@${domain}`);

/** The text/html part of a raw MIME message, quoted-printable undone. */
function htmlPartOf(raw: string): string {
  const part = raw.split(/\r\n--/).find((p) => /^Content-Type: text\/html/im.test(p)) ?? "";
  const body = part.slice(part.indexOf("\r\n\r\n") + 4);
  return body
    .replace(/=\r\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

describe("mail limits, against a real SMTP server and Redis", () => {
  let database: TestDatabase;
  let redisPrefix: TestRedisPrefix;
  let redis: Redis;
  let smtp: LocalSmtpServer;
  const mailers: Mailer[] = [];

  /** A worker's mailer: SMTP, the recipient cap, and the per-owner budget on the shared Redis. */
  const workerMailer = (options: { maxRecipients?: number; quota?: MailQuota | null } = {}) => {
    const mailer = createMailer({
      smtpUrl: smtp.urlWith("relay", "s3cret"),
      from: "Hookflow <hookflow@example.com>",
      db: database.db,
      logger,
      timeoutMs: 2000,
      maxRecipients: options.maxRecipients ?? 10,
      quota: options.quota ?? null,
    });
    mailers.push(mailer);
    return mailer;
  };
  const budget = (perHour: number, redisClient: Redis = redis) =>
    createRedisMailQuota({
      redis: redisClient,
      keyOf: (owner) => `${redisPrefix.prefix}:rate:mail:${owner}`,
      perHour,
    });
  const mail = (sourceId: string, owner: string, to: string[]) => ({
    sourceType: "approval" as const,
    sourceId,
    owner,
    eventId: "evt_1",
    to,
    subject: "Approval needed",
    html: "<p>Hello</p>",
    text: "Hello",
  });
  const rowsOf = async (sourceId: string) =>
    (
      await listMailOfSource(
        database.db,
        { sourceType: "approval", sourceId },
        { page: 1, limit: 100 },
      )
    ).items;
  const receivedBy = (address: string) => smtp.received.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = createTestRedisPrefix();
    redis = new Redis(redisPrefix.url);
    smtp = await startLocalSmtpServer({ user: "relay", pass: "s3cret" });
  });
  afterAll(async () => {
    for (const mailer of mailers) mailer.close();
    await smtp.close();
    redis.disconnect();
    await redisPrefix.destroy();
    await database.destroy();
  });

  it("refuses a mail to more recipients than MAIL_MAX_RECIPIENTS, sending nothing", async () => {
    const to = recipients(11, "cap.example");
    const result = await workerMailer({ maxRecipients: 10 }).send(mail("apr_cap", "user:u1", to));
    expect(result).toMatchObject({
      status: "refused",
      error: "too many recipients: at most 10 recipients per mail (MAIL_MAX_RECIPIENTS), got 11",
    });
    expect(smtp.received.filter((m) => m.to.some((a) => a.endsWith("@cap.example")))).toEqual([]);
    const [row] = await rowsOf("apr_cap");
    expect(row).toMatchObject({ status: "refused", error: result.error, sentAt: null });

    const atCap = await workerMailer({ maxRecipients: 10 }).send(
      mail("apr_cap", "user:u1", to.slice(0, 10)),
    );
    expect(atCap.status).toBe("sent");
  });

  it("shares each owner's hourly budget between workers and refuses what is over it", async () => {
    // Two workers, each with its own Redis connection and mailer, one budget of 5 recipients.
    const otherRedis = new Redis(redisPrefix.url);
    try {
      const first = workerMailer({ quota: budget(5) });
      const second = workerMailer({ quota: budget(5, otherRedis) });
      const owner = "org:org_flood";
      const sent = [
        await first.send(mail("apr_flood", owner, ["a@flood.example", "b@flood.example"])),
        await second.send(mail("apr_flood", owner, ["c@flood.example", "d@flood.example"])),
      ];
      expect(sent.map((result) => result.status)).toEqual(["sent", "sent"]);

      const over = await first.send(
        mail("apr_flood", owner, ["e@flood.example", "f@flood.example"]),
      );
      expect(over.status).toBe("refused");
      expect(over.error).toMatch(
        /^rate limited: its owner may mail 5 recipients per hour \(MAIL_RATE_LIMIT_PER_HOUR\); room again in \d+ s$/,
      );
      expect(receivedBy("e@flood.example")).toEqual([]);

      // What still fits goes out; then the budget is spent, on either worker.
      expect((await second.send(mail("apr_flood", owner, ["g@flood.example"]))).status).toBe(
        "sent",
      );
      expect((await first.send(mail("apr_flood", owner, ["h@flood.example"]))).status).toBe(
        "refused",
      );
      // Another owner has a budget of its own.
      expect(
        (await first.send(mail("apr_other", "user:usr_other", ["i@flood.example"]))).status,
      ).toBe("sent");

      const statuses = (await rowsOf("apr_flood")).map((row) => row.status).sort();
      expect(statuses).toEqual(["refused", "refused", "sent", "sent", "sent"]);
      expect(
        smtp.received.filter((m) => m.to.some((a) => a.endsWith("@flood.example"))),
      ).toHaveLength(4);
    } finally {
      otherRedis.disconnect();
    }
  });

  it("records a mail as failed, not sent, when its budget cannot be checked", async () => {
    const down = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    down.on("error", () => {});
    try {
      const result = await workerMailer({ quota: budget(100, down) }).send(
        mail("apr_down", "user:u2", ["x@down.example"]),
      );
      expect(result.status).toBe("failed");
      expect(result.error).toMatch(/^mail rate limit unavailable: /);
      expect(receivedBy("x@down.example")).toEqual([]);
    } finally {
      down.disconnect();
    }
  });

  it("keeps attacker text out of the headers and escaped in the html", async () => {
    const before = smtp.received.length;
    const result = await sendApprovalRequest({
      mailer: workerMailer(),
      secret: SECRET,
      publicBaseUrl: "https://hooks.example.com",
      node: {
        id: "apr_inject",
        name: "Gate\u2028Bcc: line@evil.example <img src=x onerror=alert(1)>",
        notifyEmails: ["ops@inject.example"],
        autoActionOnTimeout: "reject",
        ownerId: "usr_1",
        organizationId: null,
      },
      webhookName: "Shop\r\nBcc: attacker@evil.example\r\nX-Injected: 1\n\rSubject: hi",
      eventId: "evt_inject",
      parkId: "park_inject",
      payload: JSON.stringify({ note: "</pre><script>alert(1)</script>" }),
      timeoutAt: new Date(Date.now() + 3_600_000),
    });
    expect(result?.status).toBe("sent");
    expect(smtp.received).toHaveLength(before + 1);
    const received = smtp.received[before];
    expect(received?.to).toEqual(["ops@inject.example"]);
    const raw = received?.raw ?? "";
    // Header lines unfolded (a long header continues on lines starting with white space).
    const headers = raw.slice(0, raw.indexOf("\r\n\r\n")).replace(/\r\n[ \t]+/g, " ");
    expect(headers).not.toMatch(/^(Bcc|X-Injected):/im);
    expect(headers.match(/^Subject:.*$/gim)).toEqual([
      "Subject: Approval needed: Shop Bcc: attacker@evil.example X-Injected: 1 Subject: hi " +
        "event evt_inject at Gate Bcc: line@evil.example <img src=x onerror=alert(1)>",
    ]);
    const html = htmlPartOf(raw);
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});
