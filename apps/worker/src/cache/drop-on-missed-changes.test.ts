import { createChangeFeed } from "@hookflow/queue";
import { startRedisServer, waitUntil } from "@hookflow/testing";
import { Redis } from "ioredis";
import { createInvalidatingCache, dropOnMissedChanges } from "./invalidating-cache.js";

// A private Redis server: the test kills and restarts it, which it must not do to the shared one.
describe("a cache fed by the change feed", () => {
  it("drops what it holds when the subscriber goes away and again once it is subscribed anew", async () => {
    const server = await startRedisServer();
    const subscriber = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: null });
    subscriber.on("error", () => undefined);
    const feed = createChangeFeed({ subscriber, logger: { warn: () => undefined } });
    let loads = 0;
    const cache = createInvalidatingCache({
      load: async () => {
        loads += 1;
        return loads;
      },
      ttlMs: 60_000,
    });
    feed.on("test:changes", () => cache.drop());
    dropOnMissedChanges(feed, cache);
    try {
      await feed.start();
      expect(await cache.get("k")).toBe(1);
      expect(await cache.get("k")).toBe(1);

      await server.kill();
      // Dropped at the disconnect: the next lookup loads again.
      await waitUntil(async () => ((await cache.get("k")) === 2 ? true : undefined), {
        describe: () => `loads so far ${loads}`,
      });
      await server.start();
      // Dropped again once subscribed anew, whatever was loaded while away.
      await waitUntil(async () => ((await cache.get("k")) === 3 ? true : undefined), {
        describe: () => `loads so far ${loads}`,
      });
      expect(await cache.get("k")).toBe(3);
    } finally {
      await feed.close();
      await server.close();
    }
  });
});
