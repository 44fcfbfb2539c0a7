import type { Hono } from "hono";
import type { IngressServices } from "../services.js";

/** `GET /api/health`: 200 when Postgres and Redis answer, else 503 with the failing check. */
export function registerHealth(app: Hono, services: IngressServices): void {
  app.get("/api/health", async (c) => {
    const [postgres, redis] = await Promise.all([
      services.db.sql`select 1`.then(() => true).catch(() => false),
      services.redis
        .ping()
        .then(() => true)
        .catch(() => false),
    ]);
    const ok = postgres && redis;
    return c.json(
      { status: ok ? "ok" : "degraded", role: "ingress", checks: { postgres, redis } },
      ok ? 200 : 503,
    );
  });
}
