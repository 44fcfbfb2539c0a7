import { createLogger } from "@hookflow/observability";
import { createTestRedisPrefix, type TestRedisPrefix, waitUntil } from "@hookflow/testing";
import { Redis } from "ioredis";
import { createChangeFeed } from "./change-feed.js";

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

  it("delivers each channel's messages and drops caches once subscribed again after a reconnect", async () => {
    const subscriber = new Redis(prefix.url, { lazyConnect: true });
    const feed = createChangeFeed({
      subscriber,
      logger: createLogger({ level: "silent", role: "worker" }),
    });
    const channel = `${prefix.prefix}:chan:changes`;
    const received: string[] = [];
    let drops = 0;
    feed.on(channel, (message) => received.push(message));
    feed.onResubscribe(() => {
      drops += 1;
    });
    await feed.start();
    expect(drops).toBe(1);
    await publisher.publish(channel, "one");
    await waitUntil(() => (received.length === 1 ? true : undefined), {
      describe: () => "the first message",
    });

    // Drop the connection; ioredis reconnects by itself.
    subscriber.disconnect(true);
    await waitUntil(() => (drops === 2 ? true : undefined), {
      describe: () => "the drop after subscribing again",
    });
    // Subscribed by the time the caches were dropped: a change published now is heard.
    await publisher.publish(channel, "two");
    await waitUntil(() => (received.length === 2 ? true : undefined), {
      describe: () => "a message after the reconnect",
    });
    expect(received).toEqual(["one", "two"]);
    await feed.close();
  });
});
