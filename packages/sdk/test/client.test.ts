import { createHmac } from "node:crypto";
import { type Receiver, startReceiver, waitUntil } from "@hookflow/testing";
import {
  createApiClient,
  createHookflowClient,
  type HookflowClient,
  HookflowConnectionError,
  HookflowError,
  verifyWebhook,
} from "../src/index.js";
import { type Service, signUp, startService } from "./service.js";

describe("the SDK against a real Hookflow (hookflow start)", () => {
  let service: Service;
  let receiver: Receiver;
  let client: HookflowClient;
  let session: string;

  beforeAll(async () => {
    [service, receiver] = await Promise.all([startService(), startReceiver()]);
    session = await signUp(service.baseUrl);
    const key = await createHookflowClient({
      baseUrl: service.baseUrl,
      token: session,
    }).apiKeys.create({
      name: "sdk test",
      scopes: [
        "webhooks:read",
        "webhooks:write",
        "events:read",
        "events:write",
        "canvas:read",
        "canvas:write",
      ],
    });
    client = createHookflowClient({ baseUrl: service.baseUrl, token: key.key });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await service?.close();
  });

  it("verifies a real delivery, and rejects it tampered or stale", async () => {
    const webhook = await client.webhooks.create({
      name: "verified",
      targetUrl: `${receiver.url}/hook`,
    });
    const sent = '{"type":"order.created","id":42,"name":"Zoë"}';
    const accepted = await fetch(webhook.ingressUrl.replace(/^https?:\/\/[^/]+/, service.baseUrl), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: sent,
    });
    expect(accepted.status).toBe(202);
    const [delivery] = await receiver.waitForRequests(1);
    const headers = delivery!.headers as Record<string, string>;
    const body = delivery!.body;
    expect(body.toString("utf8")).toBe(sent);

    const verified = await verifyWebhook(headers, body, webhook.signingSecret);
    expect(verified).toMatchObject({ ok: true, scheme: "hookflow" });
    if (verified.ok) expect(verified.eventId).toBe(headers["x-hookflow-event-id"]);
    // The same delivery through the Standard Webhooks headers alone.
    const { "x-hookflow-signature": _hookflow, ...standardOnly } = headers;
    expect(await verifyWebhook(standardOnly, body, webhook.signingSecret)).toMatchObject({
      ok: true,
      scheme: "standard-webhooks",
    });

    const tampered = Buffer.from(sent.replace("42", "43"));
    expect(await verifyWebhook(headers, tampered, webhook.signingSecret)).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(await verifyWebhook(standardOnly, tampered, webhook.signingSecret)).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(await verifyWebhook(headers, body, "whsec_another")).toEqual({
      ok: false,
      reason: "mismatch",
    });
    const sixMinutesLater = () => Date.now() + 360_000;
    expect(
      await verifyWebhook(headers, body, webhook.signingSecret, { now: sixMinutesLater }),
    ).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(
      await verifyWebhook(standardOnly, body, webhook.signingSecret, { now: sixMinutesLater }),
    ).toEqual({ ok: false, reason: "expired" });
    // A stale delivery re-signed by an attacker who knows no secret stays a mismatch; one signed
    // with the right secret but dated ahead of the clock is "future".
    const t = Date.now() + 600_000;
    const future = `t=${t},v1=${createHmac("sha256", webhook.signingSecret).update(`${t}.`).update(body).digest("hex")}`;
    expect(
      await verifyWebhook({ "x-hookflow-signature": future }, body, webhook.signingSecret),
    ).toEqual({ ok: false, reason: "future" });
  });

  it("covers webhooks, events and paging with typed answers", async () => {
    const created = await Promise.all(
      [1, 2, 3].map((n) => client.webhooks.create({ name: `paged ${n}`, targetUrl: "" })),
    );
    const page = await client.webhooks.list({ limit: 2 });
    expect(page.items).toHaveLength(2);
    expect(page.total).toBeGreaterThanOrEqual(4);
    const all: string[] = [];
    for await (const webhook of client.webhooks.iterate({ limit: 2 })) all.push(webhook.id);
    expect(all).toEqual(expect.arrayContaining(created.map((w) => w.id)));
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(page.total);

    const [first] = created;
    expect((await client.webhooks.get(first!.id)).name).toBe("paged 1");
    expect((await client.webhooks.update(first!.id, { name: "renamed" })).name).toBe("renamed");
    expect(await client.webhooks.toggleActive(first!.id)).toEqual({ isActive: false });
    await client.webhooks.toggleActive(first!.id);

    const test = await client.webhooks.sendTest(first!.id, { payload: { hello: "world" } });
    const eventId = (test as { eventId: string }).eventId;
    const delivered = await waitUntil(async () => {
      const event = await client.events.get(eventId);
      return event.status === "delivered" ? event : undefined;
    });
    expect(delivered.webhookId).toBe(first!.id);
    const events = await client.events.list({ webhookId: first!.id });
    expect(events.items.map((e) => e.id)).toContain(eventId);
    const seen: string[] = [];
    for await (const event of client.events.iterate({ webhookId: first!.id, limit: 1 })) {
      seen.push(event.id);
    }
    expect(seen).toEqual([eventId]);
    expect(await client.events.replay(eventId)).toEqual({ ok: true });

    const filter = await client.nodes.filterNodes.create({
      name: "only paid",
      inputNodes: [{ nodeType: "webhook", nodeId: first!.id }],
      filters: [{ field: "status", operator: "eq", value: "paid" }],
    });
    expect((await client.nodes.filterNodes.get(filter.id)).name).toBe("only paid");
    await client.nodes.filterNodes.delete(filter.id);
    await client.webhooks.delete(first!.id);
  });

  it("streams a webhook's new events and their steps, until the loop stops", async () => {
    const webhook = await client.webhooks.create({
      name: "live",
      targetUrl: `${receiver.url}/live`,
    });
    const abort = new AbortController();
    const messages: Array<{ type: string; eventId: string }> = [];
    let followed: string | undefined;
    const reading = (async () => {
      for await (const message of client.webhooks.stream(webhook.id, { signal: abort.signal })) {
        messages.push(message);
        followed ??= message.eventId;
        if (message.type === "done" && message.eventId === followed) abort.abort();
      }
    })();
    // The client cannot see when the server has subscribed: events are sent until one shows.
    await waitUntil(
      async () => {
        if (messages.length > 0) return true;
        await fetch(`${service.baseUrl}/api/in/${webhook.ingressToken}`, {
          method: "POST",
          body: '{"live":true}',
        });
        return undefined;
      },
      { intervalMs: 200 },
    );
    await reading;
    expect(messages.filter((m) => m.eventId === followed).map((m) => [m.type, m.eventId])).toEqual([
      ["event", followed],
      ["step", followed],
      ["step", followed],
      ["done", followed],
    ]);
    await expect(
      (async () => {
        for await (const _ of client.webhooks.stream("wh_unknown")) break;
      })(),
    ).rejects.toMatchObject({ statusCode: 404 });
  });

  it("throws HookflowError with the API's error shape", async () => {
    const failure = await client.webhooks.get("wh_missing").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HookflowError);
    expect((failure as HookflowError).toJSON()).toEqual({
      statusCode: 404,
      message: expect.any(String),
      error: "Not Found",
    });
    const invalid = (await client.webhooks
      .create({ name: "" })
      .catch((error: unknown) => error)) as HookflowError;
    expect([invalid.statusCode, invalid.message]).toEqual([400, expect.stringContaining("name")]);
    const anonymous = createHookflowClient({ baseUrl: service.baseUrl });
    await expect(anonymous.webhooks.list()).rejects.toMatchObject({ statusCode: 401 });
  });

  it("gives the typed low-level client the same credential", async () => {
    const api = createApiClient({ baseUrl: service.baseUrl, token: session });
    const { data, response } = await api.GET("/api/auth/me");
    expect(response.status).toBe(200);
    expect(data?.user.email).toMatch(/@example\.com$/);
    const missing = await api.GET("/api/webhooks/{id}", { params: { path: { id: "wh_none" } } });
    expect(missing.error).toMatchObject({ statusCode: 404 });
  });

  it("reports an unreachable server as HookflowConnectionError", async () => {
    const offline = createHookflowClient({ baseUrl: "http://127.0.0.1:9", token: "x" });
    const failure = await offline.webhooks.list().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HookflowConnectionError);
    expect((failure as Error).message).toMatch(/Could not reach http:\/\/127\.0\.0\.1:9/);
  });
});
