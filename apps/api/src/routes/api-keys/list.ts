import { createRoute, z } from "@hono/zod-openapi";
import { listApiKeysOfOwner } from "@hookflow/db";
import type { ApiApp } from "../../http/api-app.js";
import { PublicApiKey, presentApiKey } from "../../identity/present.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "../auth/identity-error-docs.js";
import { requireSession } from "../organizations/require-session.js";

const route = createRoute({
  operationId: "listApiKeys",
  method: "get",
  path: "/api/api-keys",
  tags: ["API keys"],
  summary: "The caller's active keys (prefixes only, never the values)",
  responses: {
    200: {
      description: "Keys",
      content: { "application/json": { schema: z.array(PublicApiKey) } },
    },
    ...identityErrors(401, 403),
  },
});

export function registerListApiKeys(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const actor = c.get("actor");
    requireSession(actor, "Managing API keys");
    const rows = await listApiKeysOfOwner(services.db.db, actor.userId);
    return c.json(rows.map(presentApiKey), 200);
  });
}
