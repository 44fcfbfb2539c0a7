import { createRoute, z } from "@hono/zod-openapi";
import { listApiKeys, PublicApiKey } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "../auth/identity-error-docs.js";

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
    return c.json(await listApiKeys(services, c.get("actor")), 200);
  });
}
