import type { Hono } from "hono";
import type { Redis } from "ioredis";
import type { StreamServices } from "../../services.js";

const PING_TIMEOUT_MS = 2000;

/** True when the connection answers PING in time; a queued command never hangs the probe. */
function pingWithin(redis: Redis, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const ping = redis
    .ping()
    .then((answer) => answer === "PONG")
    .catch(() => false);
  return Promise.race([ping, timeout]).finally(() => clearTimeout(timer));
}

/** `GET /api/health`: the stream app depends on Redis only (commands and pub/sub). */
export function registerHealth(app: Hono, services: StreamServices): void {
  app.get("/api/health", async (c) => {
    const [commands, subscriber] = await Promise.all([
      pingWithin(services.redis, PING_TIMEOUT_MS),
      pingWithin(services.subscriber, PING_TIMEOUT_MS),
    ]);
    const ok = commands && subscriber;
    return c.json(
      { status: ok ? "ok" : "degraded", role: "stream", checks: { redis: ok } },
      ok ? 200 : 503,
    );
  });
}
