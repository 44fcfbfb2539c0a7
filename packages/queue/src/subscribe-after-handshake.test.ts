import { once } from "node:events";
import { createTestRedisPrefix, type TestRedisPrefix, waitUntil } from "@hookflow/testing";
import { Redis } from "ioredis";
import { subscribeAfterHandshake } from "./subscribe-after-handshake.js";

describe("subscribeAfterHandshake", () => {
  let prefix: TestRedisPrefix;
  let commands: Redis;

  beforeAll(() => {
    prefix = createTestRedisPrefix();
    commands = new Redis(prefix.url);
  });
  afterAll(async () => {
    commands.disconnect();
    await prefix.destroy();
  });

  it("waits out a connection's handshake, which then completes and receives messages", async () => {
    const channel = `${prefix.prefix}:handshake`;
    const connection = new Redis(prefix.url, { lazyConnect: true });
    const errors: unknown[] = [];
    connection.on("error", (error) => errors.push(error));
    let reconnects = 0;
    connection.on("reconnecting", () => reconnects++);
    const received: string[] = [];
    connection.on("message", (_from: string, message: string) => received.push(message));
    const subscribed = once(connection, "connect").then(() => {
      // Connected, ready check not yet answered: a SUBSCRIBE written now would break it.
      expect(connection.status).toBe("connect");
      return subscribeAfterHandshake(connection, channel);
    });
    await connection.connect();
    await subscribed;
    await commands.publish(channel, "hello");
    await waitUntil(() => (received.length === 1 ? true : undefined), { timeoutMs: 5000 });
    expect(received).toEqual(["hello"]);
    expect(errors).toEqual([]);
    expect(reconnects).toBe(0);
    connection.disconnect();
  });

  it("rejects on a connection that ends during the handshake", async () => {
    const connection = new Redis(prefix.url, { lazyConnect: true, retryStrategy: () => null });
    const ended = once(connection, "end");
    const subscribed = once(connection, "connect").then(() => {
      const attempt = subscribeAfterHandshake(connection, `${prefix.prefix}:ended`);
      connection.disconnect();
      return attempt;
    });
    await connection.connect().catch(() => undefined);
    await expect(subscribed).rejects.toThrow(/Connection is closed/);
    await ended;
  });
});
