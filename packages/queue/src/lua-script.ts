import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

export type LuaScript = (keys: string[], args: Array<string | number>) => Promise<unknown>;

/**
 * A Lua script run by its SHA (EVALSHA), loading it with EVAL the first time a server does not
 * know it (a fresh or restarted Redis).
 */
export function luaScript(redis: Redis, source: string): LuaScript {
  const sha = createHash("sha1").update(source).digest("hex");
  return async (keys, args) => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes("NOSCRIPT")) throw error;
      return redis.eval(source, keys.length, ...keys, ...args);
    }
  };
}
