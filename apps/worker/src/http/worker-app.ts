import { Hono } from "hono";
import type { WorkerServices } from "../services.js";

/**
 * The worker's small HTTP surface: `GET /api/health` (Postgres and Redis reachable). Its metrics
 * are on the process's metrics listener (`METRICS_PORT`), not here. No side effects, so tests
 * call `app.request(...)`.
 */
export function createWorkerHttpApp(services: WorkerServices): Hono {
  const app = new Hono();
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
      { status: ok ? "ok" : "degraded", role: "worker", checks: { postgres, redis } },
      ok ? 200 : 503,
    );
  });
  app.notFound((c) => c.json({ statusCode: 404, message: "Not Found", error: "Not Found" }, 404));
  app.onError((error, c) => {
    services.logger.error({ err: error }, "worker http error");
    return c.json(
      { statusCode: 500, message: "Internal Server Error", error: "Internal Server Error" },
      500,
    );
  });
  return app;
}
