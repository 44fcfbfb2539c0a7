import { once } from "node:events";
import type { StepMessage } from "@hookflow/pipeline";
import { createTestRedisPrefix, type TestRedisPrefix, waitFor } from "@hookflow/testing";
import { Redis } from "ioredis";
import { type RedisKeys, redisKeys } from "../redis-keys.js";
import type { StepEntry } from "./step-entry.js";
import { createStepHub, type StepHub } from "./step-hub.js";
import {
  createStepPublisher,
  STEP_BUFFER_TTL_SECONDS,
  type StepPublisher,
} from "./step-publisher.js";

function stepOf(eventId: string, nodeId: string): StepMessage {
  return {
    kind: "step",
    step: { eventId, nodeType: "filter", nodeId, status: "success", at: new Date().toISOString() },
  };
}

describe("step publisher and hub", () => {
  let prefix: TestRedisPrefix;
  let keys: RedisKeys;
  let commands: Redis;
  let subscriber: Redis;
  let publisher: StepPublisher;
  let hub: StepHub;
  let eventCounter = 0;
  const nextEvent = () => `evt_hub${++eventCounter}`;

  beforeAll(() => {
    prefix = createTestRedisPrefix();
    keys = redisKeys(prefix.prefix);
    commands = new Redis(prefix.url);
    subscriber = new Redis(prefix.url);
    publisher = createStepPublisher({ redis: commands, keys });
    hub = createStepHub({ subscriberRedis: subscriber, commandRedis: commands, keys });
  });
  afterAll(async () => {
    await hub.close();
    subscriber.disconnect();
    commands.disconnect();
    await prefix.destroy();
  });

  it("numbers an event's messages from 1 and keeps them in an expiring buffer", async () => {
    const eventId = nextEvent();
    const seqs = await Promise.all(
      [1, 2, 3].map((n) => publisher.publish(eventId, stepOf(eventId, `n${n}`))),
    );
    expect(seqs).toEqual([1, 2, 3]);
    const raws = await commands.lrange(keys.stepBuffer(eventId), 0, -1);
    expect(raws.map((raw) => JSON.parse(raw))).toEqual(
      [1, 2, 3].map((n) => ({
        seq: n,
        eventId,
        message: { kind: "step", step: expect.objectContaining({ nodeId: `n${n}` }) },
      })),
    );
    const ttl = await commands.ttl(keys.stepBuffer(eventId));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(STEP_BUFFER_TTL_SECONDS);
    // The buffer is the event's only key: numbering continues from its tail entry.
    expect(await commands.keys(`${keys.stepBuffer(eventId)}*`)).toEqual([keys.stepBuffer(eventId)]);
  });

  it("numbers each event on its own when messages of several events go out together", async () => {
    const [a, b] = [nextEvent(), nextEvent()];
    const seqs = await Promise.all(
      [a, b, a, b, a].map((eventId, n) => publisher.publish(eventId, stepOf(eventId, `n${n}`))),
    );
    expect(seqs).toEqual([1, 1, 2, 2, 3]);
    const nodes = async (eventId: string) =>
      (await commands.lrange(keys.stepBuffer(eventId), 0, -1)).map(
        (raw) => JSON.parse(raw).message.step.nodeId,
      );
    expect(await nodes(a)).toEqual(["n0", "n2", "n4"]);
    expect(await nodes(b)).toEqual(["n1", "n3"]);
  });

  it("publishes a flush as one channel message, one entry per line", async () => {
    const listener = new Redis(prefix.url);
    const received: string[] = [];
    listener.on("message", (_channel: string, message: string) => received.push(message));
    await listener.subscribe(keys.stepsChannel);
    const [a, b] = [nextEvent(), nextEvent()];
    await Promise.all(
      [a, b, a].map((eventId, n) => publisher.publish(eventId, stepOf(eventId, `n${n}`))),
    );
    await waitFor(() => received.length === 1, "the batch message");
    const entries = (received[0] ?? "").split("\n").map((line) => JSON.parse(line));
    expect(entries.map((entry) => [entry.eventId, entry.seq, entry.message.step.nodeId])).toEqual([
      [a, 1, "n0"],
      [a, 2, "n2"],
      [b, 1, "n1"],
    ]);
    listener.disconnect();
  });

  it("rewrites a message sent with a raw line break, so one entry stays one line", async () => {
    const listener = new Redis(prefix.url);
    const received: string[] = [];
    listener.on("message", (_channel: string, message: string) => received.push(message));
    await listener.subscribe(keys.stepsChannel);
    const [victim, sender] = [nextEvent(), nextEvent()];
    const forged = JSON.stringify({ seq: 9, eventId: victim, message: { kind: "done" } });
    const json = `{"kind":"step","step":{"eventId":"${sender}","nodeType":"transform","nodeId":"n","status":"success","at":"2030-01-01T00:00:00.000Z","lastPayload":[1,\n${forged}\n]}}`;
    publisher.sendJson(sender, json);
    await publisher.idle();
    await waitFor(() => received.length === 1, "the batch message");
    const lines = (received[0] ?? "").split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ eventId: sender, seq: 1 });
    listener.disconnect();
  });

  it("keeps publish order across batches of a large burst", async () => {
    const eventId = nextEvent();
    const seqs = await Promise.all(
      Array.from({ length: 450 }, (_, n) => publisher.publish(eventId, stepOf(eventId, `n${n}`))),
    );
    expect(seqs).toEqual(Array.from({ length: 450 }, (_, n) => n + 1));
  });

  it("with a flush delay, keeps the order of messages published over several turns", async () => {
    const delayed = createStepPublisher({ redis: commands, keys, flushDelayMs: 20 });
    const eventId = nextEvent();
    const pending: Promise<number>[] = [];
    for (let n = 1; n <= 6; n++) {
      pending.push(delayed.publish(eventId, stepOf(eventId, `n${n}`)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(pending)).toEqual([1, 2, 3, 4, 5, 6]);
    const raws = await commands.lrange(keys.stepBuffer(eventId), 0, -1);
    expect(raws.map((raw) => JSON.parse(raw).message.step.nodeId)).toEqual([
      "n1",
      "n2",
      "n3",
      "n4",
      "n5",
      "n6",
    ]);
  });

  it("sends an urgent message, and what gathered before it, on the next turn", async () => {
    const slow = createStepPublisher({ redis: commands, keys, flushDelayMs: 60_000 });
    const eventId = nextEvent();
    const first = slow.publish(eventId, stepOf(eventId, "n1"));
    const second = slow.publish(eventId, stepOf(eventId, "n2"), { urgent: true });
    expect(await Promise.all([first, second])).toEqual([1, 2]);
  });

  it("reports a batch it could not publish to onError, and idle() still resolves", async () => {
    const broken = new Redis({
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    const failures: number[] = [];
    const failing = createStepPublisher({
      redis: broken,
      keys,
      onError: (_error, messages) => failures.push(messages),
    });
    const eventId = nextEvent();
    failing.send(eventId, stepOf(eventId, "n1"));
    failing.send(eventId, stepOf(eventId, "n2"));
    await failing.idle();
    expect(failures).toEqual([2]);
    broken.disconnect();
  });

  it("caps the buffer by dropping the oldest messages while numbers keep counting", async () => {
    const small = createStepPublisher({ redis: commands, keys, bufferMaxEntries: 3 });
    const eventId = nextEvent();
    for (let n = 1; n <= 5; n++) await small.publish(eventId, stepOf(eventId, `n${n}`));
    const raws = await commands.lrange(keys.stepBuffer(eventId), 0, -1);
    expect(raws.map((raw) => JSON.parse(raw).seq)).toEqual([3, 4, 5]);
  });

  it("delivers what was buffered before the watch, then live messages, in order", async () => {
    const eventId = nextEvent();
    await publisher.publish(eventId, stepOf(eventId, "early-1"));
    await publisher.publish(eventId, stepOf(eventId, "early-2"));
    const seen: StepEntry[] = [];
    const stop = hub.watch(eventId, {}, (entry) => seen.push(entry));
    await waitFor(() => seen.length === 2, "the buffered messages");
    await publisher.publish(eventId, { kind: "done", done: done(eventId) });
    await waitFor(() => seen.length === 3, "the live message");
    expect(seen.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(seen[2]?.message.kind).toBe("done");
    stop();
  });

  it("resumes after a given sequence number", async () => {
    const eventId = nextEvent();
    for (let n = 1; n <= 4; n++) await publisher.publish(eventId, stepOf(eventId, `n${n}`));
    const seen: number[] = [];
    const stop = hub.watch(eventId, { afterSeq: 2 }, (entry) => seen.push(entry.seq));
    await waitFor(() => seen.length === 2, "messages after 2");
    await publisher.publish(eventId, stepOf(eventId, "n5"));
    await waitFor(() => seen.length === 3, "the live message");
    expect(seen).toEqual([3, 4, 5]);
    stop();
  });

  it("delivers every message exactly once and in order while publishing races the watch", async () => {
    const eventId = nextEvent();
    const seen: number[] = [];
    const publishing = (async () => {
      for (let n = 1; n <= 300; n++) void publisher.publish(eventId, stepOf(eventId, `n${n}`));
    })();
    const stop = hub.watch(eventId, {}, (entry) => seen.push(entry.seq));
    await publishing;
    await waitFor(() => seen.length >= 300, "300 messages");
    expect(seen).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    stop();
  });

  it("keeps one Redis subscription for any number of watchers and forgets stopped ones", async () => {
    const eventIds = Array.from({ length: 50 }, () => nextEvent());
    const stops = eventIds.flatMap((eventId) => [
      hub.watch(eventId, {}, () => {}),
      hub.watch(eventId, {}, () => {}),
    ]);
    await hub.ready();
    expect(hub.listenerCount()).toBe(100);
    expect(hub.listenerCount(eventIds[0])).toBe(2);
    const [, subscribers] = (await commands.pubsub("NUMSUB", keys.stepsChannel)) as [
      string,
      number,
    ];
    expect(subscribers).toBe(1);
    for (const stop of stops) stop();
    expect(hub.listenerCount()).toBe(0);
  });

  it("stops delivering once the watch is stopped", async () => {
    const eventId = nextEvent();
    const seen: number[] = [];
    const stop = hub.watch(eventId, {}, (entry) => seen.push(entry.seq));
    await hub.ready();
    await publisher.publish(eventId, stepOf(eventId, "n1"));
    await waitFor(() => seen.length === 1, "the first message");
    stop();
    const other = nextEvent();
    const sentinel: number[] = [];
    const stopSentinel = hub.watch(other, {}, (entry) => sentinel.push(entry.seq));
    await publisher.publish(eventId, stepOf(eventId, "n2"));
    await publisher.publish(other, stepOf(other, "n1"));
    // The sentinel's message was published after the stopped event's: once it arrived, the
    // stopped watcher would have had its message too.
    await waitFor(() => sentinel.length === 1, "the sentinel");
    expect(seen).toEqual([1]);
    stopSentinel();
  });

  it("isolates a listener that throws from the others", async () => {
    const errors: unknown[] = [];
    const connection = new Redis(prefix.url);
    const local = createStepHub({
      subscriberRedis: connection,
      commandRedis: commands,
      keys,
      onError: (error) => errors.push(error),
    });
    const eventId = nextEvent();
    const seen: number[] = [];
    local.watch(eventId, {}, () => {
      throw new Error("boom");
    });
    const stop = local.watch(eventId, {}, (entry) => seen.push(entry.seq));
    await local.ready();
    await publisher.publish(eventId, stepOf(eventId, "n1"));
    await waitFor(() => seen.length === 1, "the healthy listener");
    expect(errors).toHaveLength(1);
    stop();
    await local.close();
    expect(local.listenerCount()).toBe(0);
    connection.disconnect();
  });

  it("drops an idle subscription and subscribes again for the next watch", async () => {
    const idleKeys = redisKeys(`${prefix.prefix}_idle`);
    const connection = new Redis(prefix.url);
    const local = createStepHub({
      subscriberRedis: connection,
      commandRedis: commands,
      keys: idleKeys,
      idleUnsubscribeMs: 20,
    });
    const subscribers = async () =>
      ((await commands.pubsub("NUMSUB", idleKeys.stepsChannel)) as [string, number])[1];
    const idlePublisher = createStepPublisher({ redis: commands, keys: idleKeys });
    const first = nextEvent();
    const stopFirst = local.watch(first, {}, () => {});
    await local.ready();
    expect(await subscribers()).toBe(1);
    stopFirst();
    let count = 1;
    const deadline = Date.now() + 5000;
    while (count !== 0 && Date.now() < deadline) count = await subscribers();
    expect(count).toBe(0);

    const second = nextEvent();
    const seen: number[] = [];
    const stop = local.watch(second, {}, (entry) => seen.push(entry.seq));
    await local.ready();
    await idlePublisher.publish(second, stepOf(second, "n1"));
    await waitFor(() => seen.length === 1, "a message after subscribing again");
    expect(await subscribers()).toBe(1);
    stop();
    await local.close();
    connection.disconnect();
  });

  it("subscribes after its connection's handshake, so a watch begun during it breaks nothing", async () => {
    // Redis answers SUBSCRIBE during the handshake, which turns the connection into a subscriber
    // before the client's ready check (INFO) is sent: the check fails and the connection resets.
    const connection = new Redis(prefix.url, { lazyConnect: true });
    const errors: unknown[] = [];
    connection.on("error", (error) => errors.push(error));
    let reconnects = 0;
    connection.on("reconnecting", () => reconnects++);
    const local = createStepHub({ subscriberRedis: connection, commandRedis: commands, keys });
    const eventId = nextEvent();
    const seen: number[] = [];
    const handshake = once(connection, "connect").then(() => {
      expect(connection.status).toBe("connect");
      return local.watch(eventId, {}, (entry) => seen.push(entry.seq));
    });
    await connection.connect();
    const stop = await handshake;
    await local.ready();
    await publisher.publish(eventId, stepOf(eventId, "n1"));
    await publisher.publish(eventId, stepOf(eventId, "n2"));
    await waitFor(() => seen.length === 2, "both messages");
    expect(seen).toEqual([1, 2]);
    expect(errors).toEqual([]);
    expect(reconnects).toBe(0);
    stop();
    await local.close();
    connection.disconnect();
  });

  it("fills in messages published while its subscriber was disconnected", async () => {
    const connection = new Redis(prefix.url);
    const local = createStepHub({ subscriberRedis: connection, commandRedis: commands, keys });
    const eventId = nextEvent();
    const seen: number[] = [];
    const stop = local.watch(eventId, {}, (entry) => seen.push(entry.seq));
    await local.ready();
    await publisher.publish(eventId, stepOf(eventId, "n1"));
    await waitFor(() => seen.length === 1, "the first message");

    const ended = once(connection, "end");
    connection.disconnect(false);
    await ended;
    await publisher.publish(eventId, stepOf(eventId, "n2"));
    await publisher.publish(eventId, stepOf(eventId, "n3"));
    await connection.connect();
    await waitFor(() => seen.length === 3, "the messages missed while disconnected");
    await publisher.publish(eventId, stepOf(eventId, "n4"));
    await waitFor(() => seen.length === 4, "a live message after the reconnect");
    expect(seen).toEqual([1, 2, 3, 4]);
    stop();
    await local.close();
    connection.disconnect();
  });
});

function done(eventId: string) {
  return {
    eventId,
    status: 200 as const,
    body: { deliveryStatus: "delivered" as const, statusCode: 200, latencyMs: 5 },
  };
}
