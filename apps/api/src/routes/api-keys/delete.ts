import { createRoute, z } from "@hono/zod-openapi";
import type { ApiApp } from "../../http/api-app.js";
import { identityContextOf } from "../../identity/context.js";
import { revokeApiKey } from "../../identity/revoke-api-key.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "../auth/identity-error-docs.js";
import { requireSession } from "../organizations/require-session.js";

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
    const actor = c.get("actor");
    requireSession(actor, "Managing API keys");
    await revokeApiKey(identityContextOf(services), {
      userId: actor.userId,
      apiKeyId: c.req.valid("param").id,
    });
    return c.body(null, 204);
  });
}
