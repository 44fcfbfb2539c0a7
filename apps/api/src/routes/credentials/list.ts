import { createRoute, z } from "@hono/zod-openapi";
import { listCredentials } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { BEARER, scopeGuard } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { PageQuery, TotalCountHeader } from "../nodes/resource-route-kit.js";
import { json, TAG } from "./credential-route-kit.js";
import {
  CredentialResponse,
  credentialErrors,
  toCredentialResponse,
} from "./credential-schemas.js";

export function registerListCredentials(app: ApiApp, services: ApiServices): void {
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
    const { items, total } = await listCredentials(services, c.get("actor"), c.req.valid("query"));
    c.header("X-Total-Count", String(total));
    return c.json(items.map(toCredentialResponse), 200);
  });
}
