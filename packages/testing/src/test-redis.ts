import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface TestRedisPrefix {
  prefix: string;
  url: string;
  /** Deletes every key under the prefix. */
  destroy: () => Promise<void>;
}

/** A key prefix of its own on the shared test Redis. */
export function createTestRedisPrefix(): TestRedisPrefix {
  const prefix = `hft_${randomBytes(5).toString("hex")}`;
  return {
    prefix,
    url: TEST_REDIS_URL,
    destroy: async () => {
      const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await redis.connect();
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
          cursor = next;
          if (keys.length > 0) await redis.unlink(...keys);
        } while (cursor !== "0");
      } finally {
        redis.disconnect();
      }
    },
  };
}
