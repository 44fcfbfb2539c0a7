import { createRoute, z } from "@hono/zod-openapi";
import { revokeApiKey } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "../auth/identity-error-docs.js";

const route = createRoute({
  operationId: "revokeApiKey",
  method: "delete",
  path: "/api/api-keys/{id}",
  tags: ["API keys"],
  summary: "Revoke an API key; it stops working at once",
  request: { params: z.object({ id: z.string() }) },
  responses: {
    204: { description: "Revoked" },
    ...identityErrors(401, 403, 404),
  },
});

export function registerDeleteApiKey(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    await revokeApiKey(services, c.get("actor"), { apiKeyId: c.req.valid("param").id });
    return c.body(null, 204);
  });
}
