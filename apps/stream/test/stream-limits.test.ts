import { openSse, type SseConnection, waitUntil } from "@hookflow/testing";
import { newEventId, type StreamHarness, startStreamHarness } from "./stream-harness.js";

/**
 * Stream tokens are handed to anyone who posts to a public ingress URL: one token must not hold
 * dozens of two-minute connections, nor one process an unbounded number.
 */
describe("bounded event streams", () => {
  const open: SseConnection[] = [];
  const harnesses: StreamHarness[] = [];
  const connect = async (url: string) => {
    const connection = await openSse(url);
    open.push(connection);
    return connection;
  };
  const start = async (...args: Parameters<typeof startStreamHarness>) => {
    const harness = await startStreamHarness(...args);
    harnesses.push(harness);
    return harness;
  };
  /** The token's open-stream counter in Redis (0 once its key is gone). */
  const tokenCount = async (h: StreamHarness) => {
    const keys = await h.redis.keys(`${h.prefix.prefix}:stream-open:*`);
    let total = 0;
    for (const key of keys) total += Number(await h.redis.get(key));
    return total;
  };

  afterEach(async () => {
    for (const connection of open.splice(0)) connection.close();
    for (const harness of harnesses.splice(0).reverse()) await harness.close();
  });

  it("lets one token hold 5 streams and answers the 6th 429 in the error shape", async () => {
    const h = await start({ timeoutMs: 60_000 });
    const eventId = newEventId();
    const token = h.tokenFor(eventId);
    const streams = [];
    for (let i = 0; i < 5; i++) streams.push(await connect(h.streamUrl(eventId, token)));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);

    const refused = await connect(h.streamUrl(eventId, token));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(JSON.parse(refused.text ?? "")).toEqual({
      statusCode: 429,
      message: "Too many open streams for this stream token (at most 5)",
      error: "Too Many Requests",
    });
    // Another token of the same event has slots of its own.
    const other = await connect(h.streamUrl(eventId, h.tokenFor(eventId, Date.now() + 60_000)));
    expect(other.status).toBe(200);

    // A stream the client closes gives its slot back.
    streams[0]?.close();
    const again = await waitUntil(async () => {
      const attempt = await connect(h.streamUrl(eventId, token));
      return attempt.status === 200 ? attempt : undefined;
    });
    expect(again.status).toBe(200);
    expect(h.services.slots.held()).toBe(6);
  });

  it("counts a token's streams across stream processes (Redis)", async () => {
    const a = await start({ timeoutMs: 60_000 }, { env: { STREAM_MAX_PER_TOKEN: "2" } });
    const b = await start(
      { timeoutMs: 60_000 },
      { env: { STREAM_MAX_PER_TOKEN: "2" }, prefix: a.prefix },
    );
    const eventId = newEventId();
    const token = a.tokenFor(eventId);
    expect((await connect(a.streamUrl(eventId, token))).status).toBe(200);
    expect((await connect(b.streamUrl(eventId, token))).status).toBe(200);
    expect((await connect(b.streamUrl(eventId, token))).status).toBe(429);
    expect((await connect(a.streamUrl(eventId, token))).status).toBe(429);
    expect(await tokenCount(a)).toBe(2);
  });

  it("caps the streams of one process, and every way a stream ends frees its slots", async () => {
    const h = await start(
      { timeoutMs: 60_000 },
      { env: { STREAM_MAX_PER_PROCESS: "3", STREAM_MAX_PER_TOKEN: "3" } },
    );
    const events = [newEventId(), newEventId(), newEventId()];
    for (const eventId of events) expect((await connect(h.streamUrl(eventId))).status).toBe(200);
    const refused = await connect(h.streamUrl(newEventId()));
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text ?? "").message).toBe(
      "Too many open streams on this server (at most 3)",
    );
    expect(await tokenCount(h)).toBe(3);

    // done ends the first, the client the second, shutdown of the stream the third.
    await h.publishDone(events[0] ?? "");
    open[1]?.close();
    await waitUntil(() => (h.services.slots.held() === 1 ? true : undefined));
    h.services.streams.endAll();
    await waitUntil(() => (h.services.slots.held() === 0 ? true : undefined));
    await waitUntil(async () => ((await tokenCount(h)) === 0 ? true : undefined));
    expect((await connect(h.streamUrl(newEventId()))).status).toBe(200);
  });

  it("frees the slot of a stream that timed out", async () => {
    const h = await start({ timeoutMs: 200 }, { env: { STREAM_MAX_PER_TOKEN: "1" } });
    const eventId = newEventId();
    const token = h.tokenFor(eventId);
    const first = await connect(h.streamUrl(eventId, token));
    expect((await connect(h.streamUrl(eventId, token))).status).toBe(429);
    await first.ended;
    expect(first.messages.map((m) => m.event)).toEqual(["timeout"]);
    await waitUntil(async () => ((await tokenCount(h)) === 0 ? true : undefined));
    expect((await connect(h.streamUrl(eventId, token))).status).toBe(200);
  });
});
