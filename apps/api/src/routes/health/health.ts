import { createRoute, z } from "@hono/zod-openapi";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";

const HealthBody = z.object({
  status: z.enum(["ok", "degraded"]),
  role: z.string(),
  checks: z.object({ postgres: z.boolean(), redis: z.boolean() }),
});

const route = createRoute({
  operationId: "getHealth",
  method: "get",
  path: "/api/health",
  tags: ["Health"],
  summary: "Liveness and dependency check",
  responses: {
    200: { description: "Healthy", content: { "application/json": { schema: HealthBody } } },
    503: {
      description: "A dependency is down",
      content: { "application/json": { schema: HealthBody } },
    },
  },
});

export function registerHealth(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const [postgres, redis] = await Promise.all([
      services.db.sql`select 1`.then(() => true).catch(() => false),
      services.redis
        .ping()
        .then(() => true)
        .catch(() => false),
    ]);
    const ok = postgres && redis;
    const body = {
      status: ok ? ("ok" as const) : ("degraded" as const),
      role: "api",
      checks: { postgres, redis },
    };
    return ok ? c.json(body, 200) : c.json(body, 503);
  });
}
