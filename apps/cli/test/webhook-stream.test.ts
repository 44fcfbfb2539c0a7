import {
  openSse,
  type Receiver,
  type SseConnection,
  type SseMessage,
  startReceiver,
  waitUntil,
} from "@hookflow/testing";
import { type HookflowUnderTest, startHookflow } from "./cli-process.js";

let counter = 0;

async function json(base: string, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function signUp(base: string): Promise<string> {
  const email = `stream-${Date.now()}-${++counter}@example.com`;
  const { body } = await json(base, "POST", "/api/auth/signup", undefined, {
    email,
    password: "correct horse battery",
    name: "Streamer",
  });
  return body.token;
}

/** Reads messages until one matches; the others are kept in `seen`. */
async function nextMatching(
  sse: SseConnection,
  match: (message: SseMessage) => boolean,
  seen: SseMessage[] = [],
): Promise<SseMessage> {
  for (;;) {
    const message = await sse.next(15_000);
    seen.push(message);
    if (match(message)) return message;
  }
}

describe("GET /api/webhooks/:id/stream (hookflow start)", () => {
  let hookflow: HookflowUnderTest;
  let session: string;
  let webhook: { id: string; ingressToken: string };
  let receiver: Receiver;
  const open: SseConnection[] = [];

  const tokenFor = async (id: string, credential = session) =>
    json(hookflow.base, "POST", `/api/webhooks/${id}/stream-token`, credential);
  const streamUrl = (id: string, token: string, query = "") =>
    `${hookflow.base}/api/webhooks/${id}/stream?token=${encodeURIComponent(token)}${query}`;
  const connect = async (url: string, headers: Record<string, string> = {}) => {
    const sse = await openSse(url, { headers });
    open.push(sse);
    return sse;
  };
  const send = async (payload: unknown) => {
    const response = await fetch(`${hookflow.base}/api/in/${webhook.ingressToken}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { eventId: string }).eventId;
  };

  beforeAll(async () => {
    [hookflow, receiver] = await Promise.all([
      startHookflow({ HOOKFLOW_DELAY_SCALE: "0.01" }),
      startReceiver(),
    ]);
    session = await signUp(hookflow.base);
    const created = await json(hookflow.base, "POST", "/api/webhooks", session, {
      name: "streamed",
      targetUrl: `${receiver.url}/hook`,
    });
    webhook = created.body;
  }, 60_000);
  afterEach(() => {
    for (const sse of open.splice(0)) sse.close();
  });
  afterAll(async () => {
    await receiver?.close();
    await hookflow?.stop();
  });

  it("streams each new event of the webhook with its steps and done", async () => {
    const { status, body } = await tokenFor(webhook.id);
    expect(status).toBe(200);
    expect(body.url).toMatch(new RegExp(`/api/webhooks/${webhook.id}/stream$`));
    const sse = await connect(streamUrl(webhook.id, body.token));
    expect(sse.status).toBe(200);
    expect(sse.headers.get("content-type")).toMatch(/^text\/event-stream/);

    const eventId = await send({ n: 1 });
    const announced = await nextMatching(sse, (m) => m.event === "event");
    expect(JSON.parse(announced.data)).toMatchObject({ eventId, webhookId: webhook.id });
    expect(announced.id).toMatch(/^\d+-\d+$/);
    const seen: SseMessage[] = [];
    const done = await nextMatching(sse, (m) => m.event === "done", seen);
    expect(JSON.parse(done.data)).toMatchObject({ eventId, status: 200 });
    const steps = seen.filter((m) => m.event === "step").map((m) => JSON.parse(m.data));
    expect(steps.map((step) => [step.eventId, step.nodeType, step.status])).toEqual([
      [eventId, "delivery", "running"],
      [eventId, "delivery", "success"],
    ]);

    const second = await send({ n: 2 });
    const next = await nextMatching(sse, (m) => m.event === "event");
    expect(JSON.parse(next.data).eventId).toBe(second);
  });

  it("resumes after Last-Event-ID with the events announced since (and that one again)", async () => {
    const { body } = await tokenFor(webhook.id);
    const first = await connect(streamUrl(webhook.id, body.token));
    const a = await send({ resume: "a" });
    const seenA = await nextMatching(first, (m) => m.event === "event" && m.data.includes(a));
    first.close();
    const b = await send({ resume: "b" });
    const c = await send({ resume: "c" });
    // Wait until the worker announced c, so the resumed stream finds it stored.
    await waitUntil(async () => {
      const event = await json(hookflow.base, "GET", `/api/events/${c}`, session);
      return event.body.status === "delivered" ? true : undefined;
    });
    const resumed = await connect(streamUrl(webhook.id, body.token), {
      "last-event-id": seenA.id,
    });
    const ids: string[] = [];
    while (!ids.includes(c)) {
      const message = await nextMatching(resumed, (m) => m.event === "event");
      ids.push(JSON.parse(message.data).eventId);
    }
    expect(ids).toEqual([a, b, c]);
  });

  it("ends with `expired` when the token runs out", async () => {
    // A token issued by the api is valid 5 minutes; one about to expire is forged here the way
    // the api signs them, with the process's own secret.
    const { createWebhookStreamToken } = await import("@hookflow/domain");
    const token = createWebhookStreamToken("cli-test-secret-cli-test-secret-cli-test", {
      webhookId: webhook.id,
      userId: "usr_test",
      expiresAtMs: Date.now() + 1_000,
    });
    const sse = await connect(streamUrl(webhook.id, token));
    expect(sse.status).toBe(200);
    const expired = await nextMatching(sse, (m) => m.event === "expired");
    expect(JSON.parse(expired.data)).toEqual({ webhookId: webhook.id });
    await sse.ended;
  });

  it("refuses a missing, forged or another webhook's token, and strangers' webhooks", async () => {
    const other = await json(hookflow.base, "POST", "/api/webhooks", session, {
      name: "other",
      targetUrl: "",
    });
    const { body } = await tokenFor(other.body.id);
    for (const [url, message] of [
      [`${hookflow.base}/api/webhooks/${webhook.id}/stream`, "Invalid webhook stream token"],
      [streamUrl(webhook.id, `${body.token}x`), "Invalid webhook stream token"],
      [streamUrl(webhook.id, body.token), "Webhook stream token is not valid for this webhook"],
    ] as const) {
      const response = await fetch(url);
      expect([response.status, await response.json()]).toEqual([
        401,
        { statusCode: 401, message, error: "Unauthorized" },
      ]);
    }
    const stranger = await signUp(hookflow.base);
    expect((await tokenFor(webhook.id, stranger)).status).toBe(403);
    expect((await tokenFor("wh_unknown")).status).toBe(404);
    const key = await json(hookflow.base, "POST", "/api/api-keys", session, {
      name: "webhooks only",
      scopes: ["webhooks:read"],
    });
    const noEvents = await tokenFor(webhook.id, key.body.key);
    expect([noEvents.status, noEvents.body.message]).toEqual([
      403,
      "This API key lacks the events:read scope",
    ]);
  });

  it("holds at most 5 streams per user open at once (429)", async () => {
    const { body } = await tokenFor(webhook.id);
    for (let i = 0; i < 5; i++) {
      expect((await connect(streamUrl(webhook.id, body.token))).status).toBe(200);
    }
    const sixth = await fetch(streamUrl(webhook.id, body.token));
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get("retry-after")).toBe("5");
    open.pop()?.close();
    // The place comes back once the server has seen the client leave.
    await waitUntil(async () => {
      const response = await fetch(streamUrl(webhook.id, body.token));
      if (response.status !== 200) return undefined;
      await response.body?.cancel();
      return true;
    });
  });
});
