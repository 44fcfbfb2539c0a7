import type { Database } from "@hookflow/db";
import type { RedisKeys } from "@hookflow/queue";
import type { Redis } from "ioredis";
import type { ApiServices } from "../services.js";

/** What the identity verbs need: the database and a clock. The CLI builds one from config. */
export interface IdentityContext {
  db: Database;
  now: () => Date;
}

/** Verbs that open sessions also need their lifetime. */
export interface SessionContext extends IdentityContext {
  sessionTtlSeconds: number;
}

/** Login also counts failures in Redis. */
export interface LoginContext extends SessionContext {
  redis: Redis;
  keys: RedisKeys;
}

/** The identity context of a running api. */
export function identityContextOf(services: ApiServices): LoginContext {
  return {
    db: services.db.db,
    now: () => services.now(),
    redis: services.redis,
    keys: services.keys,
    sessionTtlSeconds: services.config.sessionTtlSeconds,
  };
}
