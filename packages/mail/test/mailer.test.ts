import { listMailOfSource, type MailRow } from "@hookflow/db";
import { verifyApprovalLinkToken } from "@hookflow/domain";
import { createLogger } from "@hookflow/observability";
import {
  createTestDatabase,
  type LocalSmtpServer,
  startLocalSmtpServer,
  type TestDatabase,
} from "@hookflow/testing";
import { createMailer, type Mailer } from "../src/mailer.js";
import { sendApprovalRequest } from "../src/send-approval-request.js";

const logger = createLogger({ level: "silent", role: "test" });
const NOW = new Date("2024-05-01T12:00:00.000Z");
const SECRET = "mail-test-secret-mail-test-secret-123";

const message = {
  sourceType: "approval" as const,
  sourceId: "apr_1",
  owner: "user:usr_1",
  eventId: "evt_1",
  to: ["ops@example.com", "lead@example.com"],
  subject: "Approval needed",
  html: "<p>Hello</p>",
  text: "Hello",
};

/** A recorded mail, read back through the query the API's outbox uses. */
async function mailById(
  database: TestDatabase,
  id: string,
  sourceId = "apr_1",
): Promise<MailRow | undefined> {
  const { items } = await listMailOfSource(
    database.db,
    { sourceType: "approval", sourceId },
    { page: 1, limit: 100 },
  );
  return items.find((item) => item.id === id);
}

/** Quoted-printable soft line breaks undone, so links and text can be searched. */
const unfold = (raw: string) => raw.replace(/=\r\n/g, "");

describe("createMailer", () => {
  let database: TestDatabase;
  let smtp: LocalSmtpServer;
  const mailers: Mailer[] = [];
  const mailer = (smtpUrl: string | null) => {
    const created = createMailer({
      smtpUrl,
      from: "Hookflow <hookflow@example.com>",
      db: database.db,
      logger,
      now: () => NOW,
      timeoutMs: 2000,
      maxRecipients: 10,
      quota: null,
    });
    mailers.push(created);
    return created;
  };
  const rowOf = (id: string) => mailById(database, id);

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startLocalSmtpServer({ user: "relay", pass: "s3cret" });
  });
  afterAll(async () => {
    for (const created of mailers) created.close();
    await smtp.close();
    await database.destroy();
  });

  it("keeps mail in the local outbox when no SMTP server is configured", async () => {
    const outbox = mailer(null);
    expect(outbox.mode).toBe("outbox");
    const result = await outbox.send(message);
    expect(result).toEqual({ id: expect.stringMatching(/^mail_/), status: "outbox", error: null });
    expect(await rowOf(result.id)).toMatchObject({
      sourceType: "approval",
      sourceId: "apr_1",
      eventId: "evt_1",
      to: ["ops@example.com", "lead@example.com"],
      subject: "Approval needed",
      html: "<p>Hello</p>",
      text: "Hello",
      status: "outbox",
      error: null,
      sentAt: null,
      createdAt: NOW,
    });
  });

  it("sends through the SMTP server and records the mail as sent", async () => {
    const before = smtp.received.length;
    const result = await mailer(smtp.urlWith("relay", "s3cret")).send(message);
    expect(result).toMatchObject({ status: "sent", error: null });
    const mail = smtp.received[before];
    expect(mail?.from).toBe("hookflow@example.com");
    expect(mail?.to).toEqual(["ops@example.com", "lead@example.com"]);
    expect(mail?.raw).toMatch(/^Subject: Approval needed\r$/m);
    expect(mail?.raw).toMatch(/^From: Hookflow <hookflow@example\.com>\r$/m);
    expect(unfold(mail?.raw ?? "")).toContain("<p>Hello</p>");
    expect(await rowOf(result.id)).toMatchObject({ status: "sent", sentAt: NOW, error: null });
  });

  it("records a refused login as failed instead of throwing", async () => {
    const before = smtp.received.length;
    const result = await mailer(smtp.urlWith("relay", "wrong")).send(message);
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/Invalid username or password/);
    expect(smtp.received).toHaveLength(before);
    expect(await rowOf(result.id)).toMatchObject({ status: "failed", error: result.error });
  });

  it("records an unreachable SMTP server as failed", async () => {
    const closed = await startLocalSmtpServer({ user: "x", pass: "y" });
    const url = closed.urlWith("x", "y");
    await closed.close();
    const result = await mailer(url).send(message);
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/ECONNREFUSED|connect/i);
    expect(await rowOf(result.id)).toMatchObject({ status: "failed" });
  });

  it.each([
    [{ to: ["not an address"] }, /to\.0/],
    [{ to: [] }, /to/],
    [{ subject: "Hi\r\nBcc: victim@example.com" }, /subject: must be one line/],
  ])("refuses an invalid mail (%j) without sending it", async (change, reason) => {
    const before = smtp.received.length;
    const result = await mailer(smtp.urlWith("relay", "s3cret")).send({ ...message, ...change });
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(reason);
    expect(smtp.received).toHaveLength(before);
  });
});

describe("sendApprovalRequest", () => {
  let database: TestDatabase;
  let outbox: Mailer;
  beforeAll(async () => {
    database = await createTestDatabase();
    outbox = createMailer({
      from: "hookflow@example.com",
      db: database.db,
      logger,
      maxRecipients: 10,
      quota: null,
    });
  });
  afterAll(async () => {
    outbox.close();
    await database.destroy();
  });

  const request = (notifyEmails: string[]) => ({
    mailer: outbox,
    secret: SECRET,
    publicBaseUrl: "https://hooks.example.com/",
    node: {
      id: "apr_gate",
      name: "Big <orders>",
      notifyEmails,
      autoActionOnTimeout: "reject" as const,
      ownerId: "usr_1",
      organizationId: null,
    },
    webhookName: "Shop",
    eventId: "evt_42",
    parkId: "park_42",
    payload: JSON.stringify({ total: 990, note: "<script>alert(1)</script>" }),
    timeoutAt: new Date(NOW.getTime() + 3_600_000),
  });

  it("mails the gate's recipients approve and reject links signed for the park", async () => {
    const result = await sendApprovalRequest(request(["boss@example.com"]));
    expect(result?.status).toBe("outbox");
    const row = await mailById(database, result?.id ?? "", "apr_gate");
    expect(row).toMatchObject({ sourceType: "approval", sourceId: "apr_gate", eventId: "evt_42" });
    expect(row?.to).toEqual(["boss@example.com"]);
    const links = [
      ...(row?.text ?? "").matchAll(/https:\/\/hooks\.example\.com\/api\/approvals\/(\S+)/g),
    ];
    const verified = links.map(([, token]) =>
      verifyApprovalLinkToken(SECRET, token, NOW.getTime()),
    );
    expect(verified).toEqual([
      {
        ok: true,
        claims: { parkId: "park_42", decision: "approved", expiresAtMs: NOW.getTime() + 3_600_000 },
      },
      {
        ok: true,
        claims: { parkId: "park_42", decision: "rejected", expiresAtMs: NOW.getTime() + 3_600_000 },
      },
    ]);
    expect(row?.html).toContain("Big &lt;orders&gt;");
    expect(row?.html).not.toContain("<script>");
    expect(row?.html).toContain("&lt;script&gt;");
  });

  it("sends nothing when the gate notifies nobody", async () => {
    expect(await sendApprovalRequest(request([]))).toBeNull();
  });
});
