import { createTestRedisPrefix, type TestRedisPrefix, waitUntil } from "@hookflow/testing";
import { Redis } from "ioredis";
import { createChangeFeed } from "./change-feed.js";

const quiet = { warn: () => undefined };

describe("change feed", () => {
  let prefix: TestRedisPrefix;
  let publisher: Redis;

  beforeAll(() => {
    prefix = createTestRedisPrefix();
    publisher = new Redis(prefix.url);
  });
  afterAll(async () => {
    publisher.disconnect();
    await prefix.destroy();
  });

  it("delivers each channel's messages, reports the drop, and runs the resubscribe handlers once subscribed again", async () => {
    const subscriber = new Redis(prefix.url, { lazyConnect: true });
    const feed = createChangeFeed({ subscriber, logger: quiet });
    const channel = `${prefix.prefix}:chan:changes`;
    const received: string[] = [];
    const happened: string[] = [];
    feed.on(channel, (message) => received.push(message));
    feed.onResubscribe(() => happened.push("subscribed"));
    feed.onUnsubscribed(() => happened.push("unsubscribed"));
    await feed.start();
    expect(happened).toEqual(["subscribed"]);
    await publisher.publish(channel, "one");
    await waitUntil(() => (received.length === 1 ? true : undefined), {
      describe: () => "the first message",
    });

    // Drop the connection; ioredis reconnects by itself.
    subscriber.disconnect(true);
    await waitUntil(() => (happened.length === 3 ? true : undefined), {
      describe: () => `the drop and the resubscription, so far ${happened.join(", ")}`,
    });
    expect(happened).toEqual(["subscribed", "unsubscribed", "subscribed"]);
    // Subscribed by the time the handlers ran: a change published now is heard.
    await publisher.publish(channel, "two");
    await waitUntil(() => (received.length === 2 ? true : undefined), {
      describe: () => "a message after the reconnect",
    });
    expect(received).toEqual(["one", "two"]);
    await feed.close();
    expect(happened).toHaveLength(3);
  });

  it("a failing handler is logged and the channel's other handlers still run", async () => {
    const subscriber = new Redis(prefix.url, { lazyConnect: true });
    const warnings: string[] = [];
    const feed = createChangeFeed({
      subscriber,
      logger: { warn: (_details, message) => warnings.push(message) },
    });
    const channel = `${prefix.prefix}:chan:failing`;
    const received: string[] = [];
    feed.on(channel, () => {
      throw new Error("boom");
    });
    feed.on(channel, (message) => received.push(message));
    await feed.start();
    await publisher.publish(channel, "x");
    await waitUntil(() => (received.length === 1 ? true : undefined), {
      describe: () => "the second handler's message",
    });
    expect(warnings).toEqual(["a change handler failed"]);
    await feed.close();
  });
});
