import { type LocalSmtpServer, startLocalSmtpServer, waitUntil } from "@hookflow/testing";
import { type HookflowUnderTest, startHookflow } from "./cli-process.js";

// The mail abuse of the hardening review, replayed as an attacker would against `hookflow start`:
// sign up, put an approval gate with many addresses in front of a webhook, then post to its
// public ingress URL again and again so each event mails the addresses through the operator's
// SMTP server.

describe("hookflow start: approval mail cannot be turned into a spam relay", () => {
  let smtp: LocalSmtpServer;
  let hookflow: HookflowUnderTest;
  let base: string;

  beforeAll(async () => {
    smtp = await startLocalSmtpServer({ user: "relay", pass: "s3cret" });
    hookflow = await startHookflow({
      SMTP_URL: smtp.urlWith("relay", "s3cret"),
      MAIL_RATE_LIMIT_PER_HOUR: "4",
    });
    base = hookflow.base;
  });

  afterAll(async () => {
    await hookflow?.stop();
    await smtp?.close();
  });

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it("caps recipients, spends the owner's budget, escapes the text and lets events wait", async () => {
    const signup = await fetch(`${base}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        email: "mallory@example.com",
        password: "correct-horse-1",
        name: "M",
      }),
    });
    const { token } = (await signup.json()) as { token: string };
    const webhook = await call("POST", "/api/webhooks", token, {
      name: "Shop\r\nBcc: victims@evil.example",
      targetUrl: "http://127.0.0.1:9/unused",
    });
    expect(webhook.status).toBe(201);
    const gateOf = (notifyEmails: string[]) => ({
      name: "gate <script>alert(1)</script>",
      inputNodes: [{ nodeType: "webhook", nodeId: webhook.body.id }],
      notifyEmails,
    });
    const victims = (count: number) =>
      Array.from({ length: count }, (_, i) => `v${i}@spam.example`);

    for (const count of [50, 11]) {
      const refused = await call("POST", "/api/approval-nodes", token, gateOf(victims(count)));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        statusCode: 400,
        message: `notifyEmails: at most 10 recipients per mail (MAIL_MAX_RECIPIENTS), got ${count}`,
        error: "Bad Request",
      });
    }
    const gate = await call("POST", "/api/approval-nodes", token, gateOf(victims(2)));
    expect(gate.status).toBe(201);

    const eventIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const accepted = await fetch(`${base}/api/in/${webhook.body.ingressToken}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ buy: "<a href=https://evil.example>pills</a>", i }),
      });
      expect(accepted.status).toBe(202);
      eventIds.push(((await accepted.json()) as { eventId: string }).eventId);
    }

    const outbox = await waitUntil(async () => {
      const res = await call("GET", `/api/approval-nodes/${gate.body.id}/outbox`, token);
      return res.body.length === 5 ? (res.body as Array<Record<string, string>>) : undefined;
    });
    // A budget of 4 recipients an hour: two mails to 2 addresses, then nothing.
    const byStatus = (status: string) => outbox.filter((mail) => mail.status === status);
    expect(byStatus("sent")).toHaveLength(2);
    expect(byStatus("refused")).toHaveLength(3);
    for (const mail of byStatus("refused")) {
      expect(mail.error).toMatch(/^rate limited: .*\(MAIL_RATE_LIMIT_PER_HOUR\)/);
    }
    expect(smtp.received).toHaveLength(2);
    for (const received of smtp.received) {
      expect(received.to).toEqual(victims(2));
      const headers = received.raw.slice(0, received.raw.indexOf("\r\n\r\n"));
      expect(headers).not.toMatch(/^Bcc:/im);
    }
    for (const mail of outbox) {
      expect(mail.html).not.toMatch(/<script|<a href=https:\/\/evil/);
      expect(mail.subject).not.toMatch(/[\r\n]/);
    }

    // The events themselves are unharmed: each waits at the gate for a decision.
    for (const id of eventIds) {
      const event = await call("GET", `/api/events/${id}`, token);
      expect(event.body).toMatchObject({ status: "pending" });
    }
  });
});
