import { listActionRuns, listMailOfSource } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { enqueueActionRuns } from "@hookflow/queue";
import {
  type LocalSmtpServer,
  type Receiver,
  startLocalSmtpServer,
  startReceiver,
  waitUntil,
} from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, fromWebhook } from "../pipeline/pipeline-harness.js";
import { actionSteps, waitForActionRuns } from "./actions-harness.js";

const mailsOf = async (h: WorkerHarness, actionId: string) =>
  (
    await listMailOfSource(
      h.database.db,
      { sourceType: "emailAction", sourceId: actionId },
      { page: 1, limit: 100 },
    )
  ).items;

describe("email actions through the operator's SMTP server", () => {
  let h: WorkerHarness;
  let smtp: LocalSmtpServer;
  let target: Receiver;
  beforeAll(async () => {
    smtp = await startLocalSmtpServer({ user: "relay", pass: "s3cret" });
    target = await startReceiver();
    h = await startWorkerHarness({
      SMTP_URL: smtp.urlWith("relay", "s3cret"),
      MAIL_FROM: "Hookflow <hookflow@example.test>",
      MAIL_MAX_RECIPIENTS: "3",
    });
  });
  afterAll(async () => {
    await h.close();
    await smtp.close();
    await target.close();
  });

  it("sends one mail with the templated recipients, one-line subject and escaped HTML", async () => {
    let calls = 0;
    target.respondWith(() => (++calls < 2 ? { status: 500 } : { status: 200, body: '{"id":9}' }));
    const webhook = await h.createWebhook({ targetUrl: target.url, name: "shop", maxRetries: 3 });
    const action = await createNode(
      h,
      "emailAction",
      {
        to: "{{payload.customer.email}}, ops@example.test",
        subject: "Order {{payload.id}}: {{payload.title}}",
        body: "<p>Hi {{payload.customer.name}}, receipt {{response.body.id}} ({{response.status}})</p>",
        triggerOn: "always",
      },
      [fromWebhook(webhook.id)],
    );
    const event = await h.createEvent(webhook, {
      body: JSON.stringify({
        id: 42,
        title: "big\r\nBcc: victim@example.test",
        customer: { email: "ada@example.test", name: "<script>x</script>" },
      }),
    });
    await h.waitForStatus(event.id, "delivered");
    const [run] = await waitForActionRuns(h, event.id, 1);
    expect(run).toMatchObject({ status: "success", tries: 1, trigger: "success" });
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.to.sort()).toEqual(["ada@example.test", "ops@example.test"]);
    expect(mail?.raw).toMatch(/^Subject: Order 42: big Bcc: victim@example.test\r?$/m);
    expect(mail?.raw).not.toMatch(/^Bcc:/im);
    expect(mail?.raw).toContain("&lt;script&gt;x&lt;/script&gt;");
    const [stored] = await mailsOf(h, action.id);
    expect(stored).toMatchObject({
      status: "sent",
      eventId: event.id,
      subject: "Order 42: big Bcc: victim@example.test",
    });
    expect(stored?.html).toBe("<p>Hi &lt;script&gt;x&lt;/script&gt;, receipt 9 (200)</p>");
    expect(stored?.text).toBe("Hi <script>x</script>, receipt 9 (200)");
    expect(await actionSteps(h, event.id)).toEqual(["emailAction:running", "emailAction:success"]);
  });

  it("refuses a mail to more recipients than MAIL_MAX_RECIPIENTS, once, without retrying", async () => {
    target.respondWith(() => ({ status: 200 }));
    const webhook = await h.createWebhook({ targetUrl: target.url });
    const action = await createNode(
      h,
      "emailAction",
      {
        to: "{{payload.list}}",
        subject: "s",
        body: "b",
      },
      [fromWebhook(webhook.id)],
    );
    const before = smtp.received.length;
    const event = await h.createEvent(webhook, {
      body: '{"list":"a@x.test,b@x.test,c@x.test,d@x.test"}',
    });
    const [run] = await waitForActionRuns(h, event.id, 1);
    expect(run).toMatchObject({ status: "failed", tries: 1 });
    expect(run?.error).toMatch(/too many recipients/);
    expect(smtp.received).toHaveLength(before);
    expect((await mailsOf(h, action.id)).map((mail) => mail.status)).toEqual(["refused"]);
  });

  it("never sends a second mail for a run a crash interrupted mid-send", async () => {
    target.respondWith(() => ({ status: 200 }));
    const webhook = await h.createWebhook({ targetUrl: "" });
    const action = await createNode(
      h,
      "emailAction",
      { to: "a@x.test", subject: "s", body: "b", isActive: false },
      [fromWebhook(webhook.id)],
    );
    const event = await h.createEvent(webhook);
    await h.waitForStatus(event.id, "delivered");
    // A worker claimed the run and died while sending: the row says running.
    await h.database
      .sql`insert into action_runs (id, action_id, event_id, webhook_id, family, trigger, status, tries)
      values (${newId("actionRun")}, ${action.id}, ${event.id}, ${webhook.id}, 'emailAction', 'success', 'running', 1)`;
    const before = smtp.received.length;
    await enqueueActionRuns(h.services.actions.queue, [
      { actionId: action.id, eventId: event.id, webhookId: webhook.id, trigger: "success" },
    ]);
    const runs = await waitUntil(async () => {
      const found = await listActionRuns(h.services.db, event.id);
      return found[0]?.status === "failed" ? found : undefined;
    });
    expect(runs[0]).toMatchObject({
      tries: 2,
      error: "interrupted while sending; an email is never sent twice",
    });
    expect(smtp.received).toHaveLength(before);
  });
});

describe("email actions without SMTP_URL", () => {
  let h: WorkerHarness;
  beforeAll(async () => {
    h = await startWorkerHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("keeps the mail in the action's outbox", async () => {
    const webhook = await h.createWebhook({ targetUrl: "" });
    const action = await createNode(
      h,
      "emailAction",
      {
        to: "team@example.test",
        subject: "Event {{event.id}}",
        body: "<b>{{webhook.name}}</b>",
      },
      [fromWebhook(webhook.id)],
    );
    const event = await h.createEvent(webhook);
    await waitForActionRuns(h, event.id, 1);
    const mails = await mailsOf(h, action.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      status: "outbox",
      to: ["team@example.test"],
      subject: `Event ${event.id}`,
      html: "<b>worker test</b>",
    });
  });
});
