import { createLogger } from "@hookflow/observability";
import { type RedisServer, startRedisServer, waitUntil } from "@hookflow/testing";
import { Redis } from "ioredis";
import type { AcceptingWebhook } from "./find-accepting-webhook.js";
import { createTokenCache } from "./token-cache.js";
import { followWebhookChanges, type WebhookChangeFeed } from "./webhook-changes.js";

const CHANNEL = "test:chan:webhook-changed";

// A private Redis server: the test stops and restarts it, which it must not do to the shared one.
describe("the ingress's token cache follows the change feed", () => {
  let server: RedisServer;
  let feed: WebhookChangeFeed | undefined;
  let loads = 0;
  const tokens = createTokenCache<AcceptingWebhook>({
    load: async () => {
      loads += 1;
      return { id: "wh_1" } as AcceptingWebhook;
    },
    ttlMs: 60_000,
    maxEntries: 100,
  });
  /** Loads caused by two lookups of one token: 1 while cached, 2 while not. */
  const loadsForTwoLookups = async () => {
    const before = loads;
    await tokens.get("tok");
    await tokens.get("tok");
    return loads - before;
  };

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await feed?.disconnect();
    await server.close();
  });

  it("caches once subscribed, not while the subscriber is away, and again once resubscribed; a change drops the webhook's tokens", async () => {
    feed = followWebhookChanges({
      redisUrl: server.url,
      channel: CHANNEL,
      tokens,
      logger: createLogger({ level: "silent", role: "ingress" }),
    });
    await feed.subscribed;
    expect(await loadsForTwoLookups()).toBe(1);

    const publisher = new Redis(server.url);
    const changed = new Promise((resolve) => feed?.changes.once("webhook-changed", resolve));
    await publisher.publish(CHANNEL, JSON.stringify({ webhookId: "wh_1" }));
    await changed;
    publisher.disconnect();
    expect(await loadsForTwoLookups()).toBe(1);

    // Pub/sub keeps nothing for a subscriber that is away: no caching until subscribed again.
    await server.kill();
    await waitUntil(async () => ((await loadsForTwoLookups()) === 2 ? true : undefined), {
      describe: () => "lookups uncached while Redis is down",
    });
    await server.start();
    await waitUntil(async () => ((await loadsForTwoLookups()) === 1 ? true : undefined), {
      describe: () => "lookups cached again once resubscribed",
    });
  });
});
