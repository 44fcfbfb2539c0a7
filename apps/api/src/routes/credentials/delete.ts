import { createRoute } from "@hono/zod-openapi";
import { deleteCredential } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { BEARER, scopeGuard } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { ID, TAG } from "./credential-route-kit.js";
import { credentialErrors } from "./credential-schemas.js";

export function registerDeleteCredential(app: ApiApp, services: ApiServices): void {
  const route = createRoute({
    operationId: "deleteCredential",
    method: "delete",
    path: "/api/credentials/{id}",
    tags: [TAG],
    summary: "Delete a credential",
    description: "409 naming a node that still uses it. Needs canvas:write.",
    security: BEARER,
    middleware: [scopeGuard("canvas:write")] as const,
    request: { params: ID },
    responses: { 204: { description: "Deleted" }, ...credentialErrors(401, 403, 404, 409) },
  });
  app.openapi(route, async (c) => {
    await deleteCredential(services, c.get("actor"), c.req.valid("param"));
    return c.body(null, 204);
  });
}
