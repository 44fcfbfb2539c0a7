import { createRoute, z } from "@hono/zod-openapi";
import { listCredentialsPage } from "@hookflow/db";
import type { ApiApp } from "../../http/api-app.js";
import { actingScope, BEARER, scopeGuard } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { PageQuery, TotalCountHeader } from "../nodes/resource-route-kit.js";
import { json, TAG } from "./credential-route-kit.js";
import {
  CredentialResponse,
  credentialErrors,
  toCredentialResponse,
} from "./credential-schemas.js";

export function registerListCredentials(app: ApiApp, services: ApiServices): void {
  const { keyRing } = services;
  const list = createRoute({
    operationId: "listCredentials",
    method: "get",
    path: "/api/credentials",
    tags: [TAG],
    summary: "List credentials",
    description:
      "The acting context's credentials, newest first, without their data. Needs canvas:read.",
    security: BEARER,
    middleware: [scopeGuard("canvas:read")] as const,
    request: { query: PageQuery },
    responses: {
      200: {
        description: "One page",
        headers: TotalCountHeader,
        ...json(z.array(CredentialResponse)),
      },
      ...credentialErrors(400, 401, 403),
    },
  });
  app.openapi(list, async (c) => {
    const { page, limit } = c.req.valid("query");
    const { rows, total } = await listCredentialsPage(services.db.db, {
      scope: actingScope(c.get("actor")),
      offset: (page - 1) * limit,
      limit,
    });
    c.header("X-Total-Count", String(total));
    return c.json(
      rows.map((row) => toCredentialResponse(keyRing, row)),
      200,
    );
  });
}
