import { type ApprovalDecision, createApprovalLinkToken } from "@hookflow/domain";
import { createMailer, type Mailer, sendApprovalRequest } from "@hookflow/mail";
import { createLogger } from "@hookflow/observability";
import { parkAtGate, parkRow, resumeJobState, type SeededPark } from "./approvals-fixtures.js";
import { createApiKeyFor, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertWebhookRow, webhookInput } from "./nodes-fixtures.js";

type Db = ApiHarness["database"]["db"];

const HOUR = 3_600_000;

describe("emailed approval links and the approval outbox", () => {
  let api: ApiHarness;
  let db: Db;
  let alice: { userId: string; token: string };
  let webhookId: string;
  let gate: Record<string, any>;
  let mailer: Mailer;

  beforeAll(async () => {
    api = await startApi();
    db = api.database.db;
    alice = await createUserWithSession(db);
    webhookId = await insertWebhookRow(db, alice.userId, { priority: 2, name: "Shop <main>" });
    gate = await createNode(api, alice.token, "approval-nodes", {
      name: "Large orders",
      inputNodes: [webhookInput(webhookId)],
      notifyEmails: ["boss@example.com"],
    });
    mailer = createMailer({
      from: "hookflow@example.com",
      db,
      logger: createLogger({ level: "silent", role: "test" }),
      maxRecipients: 10,
      quota: null,
    });
  });
  afterAll(async () => {
    mailer.close();
    await api.close();
  });

  const secret = () => api.services.config.secret;
  const linkFor = (park: SeededPark, decision: ApprovalDecision, expiresAtMs = Date.now() + HOUR) =>
    `/api/approvals/${createApprovalLinkToken(secret(), { parkId: park.parkId, decision, expiresAtMs })}`;
  /** The approval mail of a parked path, as the worker sends it (kept in the outbox here). */
  const mailRequest = (park: SeededPark, payload: unknown) =>
    sendApprovalRequest({
      mailer,
      secret: secret(),
      publicBaseUrl: api.services.config.publicBaseUrl,
      node: {
        id: gate.id,
        name: gate.name,
        notifyEmails: ["boss@example.com"],
        autoActionOnTimeout: "reject",
        ownerId: alice.userId,
        organizationId: null,
      },
      webhookName: "Shop",
      eventId: park.eventId,
      parkId: park.parkId,
      payload: JSON.stringify(payload),
      timeoutAt: new Date(Date.now() + HOUR),
    });
  const open = (method: "GET" | "POST", path: string) =>
    api.app.request(path, {
      method,
      ...(method === "POST"
        ? {
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "",
          }
        : {}),
    });

  it("shows a confirmation page on GET without deciding anything", async () => {
    const park = await parkAtGate(api, {
      webhookId,
      nodeId: gate.id,
      payload: { note: "</pre><script>alert(1)</script>" },
    });
    const res = await open("GET", linkFor(park, "approved"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain("Approve this event?");
    expect(html).toMatch(/<form method="post">\s*<button type="submit"[^>]*>Approve<\/button>/);
    expect(html).toContain(park.eventId);
    expect(html).toContain("Shop &lt;main&gt;");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");

    // Opening it again (a mail scanner, a second look) still decides nothing.
    expect((await open("GET", linkFor(park, "approved"))).status).toBe(200);
    expect((await parkRow(db, park.parkId)).status).toBe("waiting");
    expect(await resumeJobState(api, park)).toBe("delayed");
  });

  it.each(["approved", "rejected"] as const)(
    "decides on POST once (%s), resumes the event, and answers 409 to any later use",
    async (decision) => {
      const park = await parkAtGate(api, { webhookId, nodeId: gate.id });
      const link = linkFor(park, decision);
      const res = await open("POST", link);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(decision === "approved" ? "Approved" : "Rejected");
      expect(await parkRow(db, park.parkId)).toMatchObject({
        status: decision,
        decidedBy: "email-link",
      });
      expect(await resumeJobState(api, park)).toBe("waiting");

      for (const [method, path] of [
        ["POST", link],
        ["GET", link],
        ["POST", linkFor(park, decision === "approved" ? "rejected" : "approved")],
      ] as const) {
        const again = await open(method, path);
        expect([method, again.status]).toEqual([method, 409]);
        expect(await again.text()).toContain(`This request was already ${decision}`);
      }
      expect((await parkRow(db, park.parkId)).status).toBe(decision);
    },
  );

  it("answers 409 to a link used after the gate was decided through the API", async () => {
    const park = await parkAtGate(api, { webhookId, nodeId: gate.id });
    await api.call("POST", `/api/approval-nodes/${gate.id}/reject`, {
      token: alice.token,
      body: { eventId: park.eventId },
    });
    const res = await open("POST", linkFor(park, "approved"));
    expect(res.status).toBe(409);
    expect((await parkRow(db, park.parkId)).status).toBe("rejected");
  });

  it("answers 401 to an expired link and decides nothing", async () => {
    const park = await parkAtGate(api, { webhookId, nodeId: gate.id });
    const expired = linkFor(park, "approved", Date.now() - 1000);
    for (const method of ["GET", "POST"] as const) {
      const res = await open(method, expired);
      expect([method, res.status]).toEqual([method, 401]);
      expect(await res.text()).toContain("This approval link has expired");
    }
    expect((await parkRow(db, park.parkId)).status).toBe("waiting");
  });

  it.each([
    ["signed with another secret", "other"],
    ["with edited claims", "edited"],
    ["that is not a token", "garbage"],
    ["far longer than any token", "long"],
  ])("answers 401 to a link %s", async (_label, kind) => {
    const park = await parkAtGate(api, { webhookId, nodeId: gate.id });
    const expiresAtMs = Date.now() + HOUR;
    let token = "not-a-token";
    if (kind === "long") token = "a".repeat(5000);
    if (kind === "other") {
      token = createApprovalLinkToken("another-secret", {
        parkId: park.parkId,
        decision: "approved",
        expiresAtMs,
      });
    } else if (kind === "edited") {
      const reject = createApprovalLinkToken(secret(), {
        parkId: park.parkId,
        decision: "rejected",
        expiresAtMs,
      });
      const approve = createApprovalLinkToken(secret(), {
        parkId: park.parkId,
        decision: "approved",
        expiresAtMs,
      });
      token = `${approve.split(".")[0]}.${reject.split(".")[1]}`;
    }
    const res = await open("POST", `/api/approvals/${token}`);
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("This approval link is not valid");
    expect((await parkRow(db, park.parkId)).status).toBe("waiting");
  });

  it("answers 404 to a link whose waiting event was deleted", async () => {
    const park = await parkAtGate(api, { webhookId, nodeId: gate.id });
    await api.services.db.sql`delete from events where id = ${park.eventId}`;
    for (const method of ["GET", "POST"] as const) {
      expect([method, (await open(method, linkFor(park, "approved"))).status]).toEqual([
        method,
        404,
      ]);
    }
  });

  it("lists the gate's mails in its outbox, whose links open the confirmation page", async () => {
    const park = await parkAtGate(api, { webhookId, nodeId: gate.id });
    const sent = await mailRequest(park, { order: 1 });
    expect(sent?.status).toBe("outbox");

    const res = await api.call("GET", `/api/approval-nodes/${gate.id}/outbox`, {
      token: alice.token,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe("1");
    expect(res.body).toEqual([
      expect.objectContaining({
        id: sent?.id,
        _id: sent?.id,
        eventId: park.eventId,
        to: ["boss@example.com"],
        status: "outbox",
        error: null,
        sentAt: null,
        subject: `Approval needed: Shop event ${park.eventId} at Large orders`,
      }),
    ]);
    const base = api.services.config.publicBaseUrl;
    const [approveUrl, rejectUrl] = [
      ...res.body[0].text.matchAll(/https?:\/\/\S+\/api\/approvals\/\S+/g),
    ].map(([url]: string[]) => url);
    expect(approveUrl?.startsWith(`${base}/api/approvals/`)).toBe(true);
    expect(rejectUrl?.startsWith(`${base}/api/approvals/`)).toBe(true);

    const path = (url: string | undefined) => new URL(url ?? "").pathname;
    const page = await open("GET", path(approveUrl));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Approve this event?");
    expect((await open("POST", path(rejectUrl))).status).toBe(200);
    expect((await parkRow(db, park.parkId)).status).toBe("rejected");
  });

  it("hides the link tokens from a canvas:read key, which may not decide approvals", async () => {
    const park = await parkAtGate(api, { webhookId, nodeId: gate.id });
    await mailRequest(park, { order: 2 });
    const outbox = async (token: string) => {
      const res = await api.call("GET", `/api/approval-nodes/${gate.id}/outbox`, { token });
      expect(res.status).toBe(200);
      const mail = res.body.find((item: { eventId: string }) => item.eventId === park.eventId);
      return `${mail.text}\n${mail.html}`;
    };
    const linkTokens = (text: string) =>
      [...text.matchAll(/\/api\/approvals\/([A-Za-z0-9_.-]+)/g)].map(([, token]) => token);

    const full = await outbox(alice.token);
    const tokens = linkTokens(full);
    expect(tokens.length).toBeGreaterThanOrEqual(2);

    const reader = await createApiKeyFor(db, alice.userId, { scopes: ["canvas:read"] });
    const redacted = await outbox(reader.key);
    for (const token of tokens) expect(redacted).not.toContain(token);
    expect(linkTokens(redacted)).toEqual([]);
    expect(redacted).toContain("/api/approvals/[redacted]");
    // Nothing left that decides the park: it is still waiting.
    expect((await parkRow(db, park.parkId)).status).toBe("waiting");

    const decider = await createApiKeyFor(db, alice.userId, {
      scopes: ["canvas:read", "events:write"],
    });
    expect(linkTokens(await outbox(decider.key))).toEqual(tokens);
  });
});
