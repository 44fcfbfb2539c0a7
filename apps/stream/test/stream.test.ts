import { createStreamToken } from "@hookflow/domain";
import { openSse, type SseConnection, waitUntil } from "@hookflow/testing";
import { newEventId, type StreamHarness, startStreamHarness } from "./stream-harness.js";

const activeTimeouts = () =>
  process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

describe("event stream over HTTP", () => {
  let h: StreamHarness;
  const open: SseConnection[] = [];
  const connect = async (url: string, headers?: Record<string, string>) => {
    const connection = await openSse(url, headers ? { headers } : {});
    open.push(connection);
    return connection;
  };

  beforeAll(async () => {
    h = await startStreamHarness({ timeoutMs: 60_000 });
  });
  afterEach(async () => {
    for (const connection of open.splice(0)) connection.close();
    h.clock.nowMs = Date.now();
  });
  afterAll(async () => {
    await h.close();
  });

  it("sends the steps published before the client connected, then live ones, then done, and closes", async () => {
    const eventId = newEventId();
    await h.publishStep(eventId, "flt_1", "running");
    await h.publishStep(eventId, "flt_1", "success");

    const sse = await connect(h.streamUrl(eventId));
    expect(sse.status).toBe(200);
    expect(sse.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(sse.headers.get("cache-control")).toBe("no-cache, no-transform");
    const first = await sse.next();
    const second = await sse.next();
    expect([first, second].map((m) => [m.event, m.id])).toEqual([
      ["step", "1"],
      ["step", "2"],
    ]);
    expect(JSON.parse(first.data)).toEqual({
      eventId,
      nodeType: "filter",
      nodeId: "flt_1",
      status: "running",
      at: expect.any(String),
    });

    await h.publishStep(eventId, "dlv", "running");
    const live = await sse.next();
    expect([live.event, live.id, JSON.parse(live.data).status]).toEqual(["step", "3", "running"]);

    await h.publishDone(eventId);
    const done = await sse.next();
    expect([done.event, done.id]).toEqual(["done", "4"]);
    expect(JSON.parse(done.data)).toEqual({
      status: 200,
      body: { deliveryStatus: "delivered", statusCode: 200, latencyMs: 12 },
    });
    await sse.ended;
    expect(sse.messages).toHaveLength(4);
  });

  it("catches up on a pipeline that finished before the client connected and closes at once", async () => {
    const eventId = newEventId();
    await h.publishStep(eventId, "flt_1");
    await h.publishDone(eventId, { deliveryStatus: "failed", statusCode: 500 });
    const sse = await connect(h.streamUrl(eventId));
    await sse.ended;
    expect(sse.messages.map((m) => m.event)).toEqual(["step", "done"]);
    expect(JSON.parse(sse.messages[1]?.data ?? "null").body.statusCode).toBe(500);
  });

  it.each([
    ["the Last-Event-ID header", { "last-event-id": "2" }, ""],
    ["the lastEventId query parameter", undefined, "&lastEventId=2"],
  ])("resumes after the last event id given by %s", async (_, headers, query) => {
    const eventId = newEventId();
    for (const node of ["a", "b", "c"]) await h.publishStep(eventId, node);
    const sse = await connect(h.streamUrl(eventId, undefined, query), headers);
    const next = await sse.next();
    expect([next.id, JSON.parse(next.data).nodeId]).toEqual(["3", "c"]);
    await h.publishDone(eventId);
    expect((await sse.next()).event).toBe("done");
    await sse.ended;
    expect(sse.messages.map((m) => m.id)).toEqual(["3", "4"]);
  });

  it("answers 204 to a client resuming after the done it already received", async () => {
    const eventId = newEventId();
    await h.publishStep(eventId, "a");
    await h.publishDone(eventId);
    const sse = await connect(h.streamUrl(eventId), { "last-event-id": "2" });
    expect(sse.status).toBe(204);
  });

  it("accepts a token up to the millisecond it expires (injected clock)", async () => {
    const eventId = newEventId();
    const token = h.tokenFor(eventId, h.clock.nowMs + 5_000);
    h.clock.nowMs += 5_000;
    const sse = await connect(h.streamUrl(eventId, token));
    expect(sse.status).toBe(200);
  });

  it.each<[string, (eventId: string) => { token: string; advanceMs?: number }, string]>([
    [
      "a token past its expiry",
      (eventId) => ({ token: h.tokenFor(eventId, h.clock.nowMs + 1_000), advanceMs: 1_001 }),
      "Stream token expired",
    ],
    [
      "a token for another event",
      () => ({ token: h.tokenFor(newEventId()) }),
      "Stream token is not valid for this event",
    ],
    [
      "a token signed with another secret",
      (eventId) => ({
        token: createStreamToken("another-secret", eventId, h.clock.nowMs + 60_000),
      }),
      "Invalid stream token",
    ],
    ["a garbled token", () => ({ token: "not-a-token" }), "Invalid stream token"],
  ])("rejects %s with 401 in the documented error shape", async (_, makeToken, message) => {
    const eventId = newEventId();
    const { token, advanceMs = 0 } = makeToken(eventId);
    h.clock.nowMs += advanceMs;
    const sse = await connect(h.streamUrl(eventId, token));
    expect(sse.status).toBe(401);
    expect(JSON.parse(sse.text ?? "null")).toEqual({
      statusCode: 401,
      message,
      error: "Unauthorized",
    });
    expect(h.services.hub.listenerCount(eventId)).toBe(0);
  });

  it("rejects a request without a token with 401", async () => {
    const res = await fetch(`${h.url}/api/events/${newEventId()}/stream`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toBe("Invalid stream token");
  });

  it("serves every stream from one Redis subscription", async () => {
    const eventIds = Array.from({ length: 25 }, () => newEventId());
    await Promise.all(eventIds.map((eventId) => connect(h.streamUrl(eventId))));
    await waitUntil(() => (h.services.hub.listenerCount() === 25 ? true : undefined));
    const [, subscribers] = (await h.redis.pubsub("NUMSUB", h.services.keys.stepsChannel)) as [
      string,
      number,
    ];
    expect(subscribers).toBe(1);
  });

  it("releases the watcher, the timers and the open-stream entry when clients disconnect", async () => {
    await waitUntil(() => (h.services.streams.count() === 0 ? true : undefined));
    const timersBefore = activeTimeouts();
    const eventIds = Array.from({ length: 20 }, () => newEventId());
    const clients = await Promise.all(eventIds.map((eventId) => connect(h.streamUrl(eventId))));
    await waitUntil(() => (h.services.streams.count() === 20 ? true : undefined));
    expect(h.services.hub.listenerCount()).toBe(20);
    expect(activeTimeouts()).toBeGreaterThanOrEqual(timersBefore + 40);

    for (const client of clients) client.close();
    await waitUntil(
      () =>
        h.services.streams.count() === 0 && h.services.hub.listenerCount() === 0 ? true : undefined,
      { describe: () => `${h.services.streams.count()} streams still open` },
    );
    await waitUntil(() => (activeTimeouts() <= timersBefore ? true : undefined), {
      describe: () => `${activeTimeouts()} timers, ${timersBefore} before`,
    });
    const metrics = await h.services.metrics.registry.metrics();
    expect(metrics).toMatch(/hookflow_stream_open_streams\{[^}]*\} 0/);
    expect(metrics).toMatch(/hookflow_stream_ended_total\{[^}]*reason="client"[^}]*\} \d+/);
  });

  it("ends every open stream on shutdown", async () => {
    const sse = await connect(h.streamUrl(newEventId()));
    await waitUntil(() => (h.services.streams.count() === 1 ? true : undefined));
    h.services.streams.endAll();
    await sse.ended;
    expect(h.services.streams.count()).toBe(0);
    expect(h.services.hub.listenerCount()).toBe(0);
  });

  it("also streams through an in-process request (no node socket)", async () => {
    const eventId = newEventId();
    await h.publishStep(eventId, "a");
    await h.publishDone(eventId);
    const res = await h.app.request(
      `/api/events/${eventId}/stream?token=${encodeURIComponent(h.tokenFor(eventId))}`,
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^retry: 3000\n\nevent: step\nid: 1\ndata: .*\n\nevent: done\nid: 2\n/);
    expect(h.services.streams.count()).toBe(0);
  });
});

describe("event stream waits", () => {
  let h: StreamHarness;
  beforeAll(async () => {
    h = await startStreamHarness({ timeoutMs: 400, heartbeatMs: 40 });
  });
  afterAll(async () => {
    await h.close();
  });

  it("sends heartbeat comments while waiting, then timeout, and closes", async () => {
    const eventId = newEventId();
    const sse = await openSse(h.streamUrl(eventId));
    const timeout = await sse.next(5_000);
    expect(timeout.event).toBe("timeout");
    expect(timeout.id).toBe("");
    expect(JSON.parse(timeout.data)).toEqual({ eventId, waitedMs: 400 });
    await sse.ended;
    expect(sse.comments).toContain("heartbeat");
    expect(h.services.streams.count()).toBe(0);
    expect(h.services.hub.listenerCount()).toBe(0);
  });
});
