import { once } from "node:events";
import {
  createWebhookFeedPublisher,
  type FeedEntry,
  type RedisKeys,
  redisKeys,
  type WebhookFeedPublisher,
} from "@hookflow/queue";
import { createTestRedisPrefix, type TestRedisPrefix, waitFor } from "@hookflow/testing";
import { Redis } from "ioredis";
import { createWebhookFeedHub } from "./webhook-feed-hub.js";

describe("webhook feed hub", () => {
  let prefix: TestRedisPrefix;
  let keys: RedisKeys;
  let commands: Redis;
  let publisher: WebhookFeedPublisher;
  let webhookCounter = 0;
  const nextWebhook = () => `wh_feed${++webhookCounter}`;
  const announce = async (webhookId: string, eventId: string) => {
    publisher.announce(webhookId, eventId);
    await publisher.idle();
  };

  beforeAll(() => {
    prefix = createTestRedisPrefix();
    keys = redisKeys(prefix.prefix);
    commands = new Redis(prefix.url);
    publisher = createWebhookFeedPublisher({ redis: commands, keys });
  });
  afterAll(async () => {
    commands.disconnect();
    await prefix.destroy();
  });

  it("subscribes after its connection's handshake, so a watch begun during it breaks nothing", async () => {
    // A SUBSCRIBE written during the handshake turns the connection into a subscriber before the
    // client's ready check (INFO): the check fails, the connection resets and announcements
    // published until it is back are lost to pub/sub.
    const connection = new Redis(prefix.url, { lazyConnect: true });
    const errors: unknown[] = [];
    connection.on("error", (error) => errors.push(error));
    let reconnects = 0;
    connection.on("reconnecting", () => reconnects++);
    const hub = createWebhookFeedHub({
      subscriber: connection,
      commands,
      keys,
      onError: (error) => errors.push(error),
    });
    const webhookId = nextWebhook();
    const seen: string[] = [];
    const handshake = once(connection, "connect").then(() => {
      expect(connection.status).toBe("connect");
      return hub.watch(webhookId, undefined, (entry: FeedEntry) => seen.push(entry.eventId));
    });
    await connection.connect();
    const stop = await handshake;
    await hub.ready();
    await announce(webhookId, "evt_1");
    await announce(webhookId, "evt_2");
    await waitFor(() => seen.length === 2, "both announcements");
    expect(seen).toEqual(["evt_1", "evt_2"]);
    expect(errors).toEqual([]);
    expect(reconnects).toBe(0);
    stop();
    await hub.close();
    connection.disconnect();
  });

  it("fills in announcements published while its subscriber was disconnected", async () => {
    const connection = new Redis(prefix.url);
    const hub = createWebhookFeedHub({ subscriber: connection, commands, keys, onError: () => {} });
    const webhookId = nextWebhook();
    const seen: string[] = [];
    const stop = hub.watch(webhookId, undefined, (entry) => seen.push(entry.eventId));
    await hub.ready();
    await announce(webhookId, "evt_1");
    await waitFor(() => seen.length === 1, "the first announcement");

    const ended = once(connection, "end");
    connection.disconnect(false);
    await ended;
    await announce(webhookId, "evt_2");
    await announce(webhookId, "evt_3");
    await connection.connect();
    await waitFor(() => seen.length === 3, "the announcements missed while disconnected");
    await announce(webhookId, "evt_4");
    await waitFor(() => seen.length === 4, "a live announcement after the reconnect");
    expect(seen).toEqual(["evt_1", "evt_2", "evt_3", "evt_4"]);
    stop();
    await hub.close();
    connection.disconnect();
  });
});
