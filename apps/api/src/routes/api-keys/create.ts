import { createRoute, z } from "@hono/zod-openapi";
import { ApiKeyFields, createApiKey, PublicApiKey } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "../auth/identity-error-docs.js";

const route = createRoute({
  operationId: "createApiKey",
  method: "post",
  path: "/api/api-keys",
  tags: ["API keys"],
  summary: "Create an API key; its value is shown only in this response",
  request: { body: { content: { "application/json": { schema: ApiKeyFields } }, required: true } },
  responses: {
    201: {
      description: "Created",
      content: { "application/json": { schema: PublicApiKey.extend({ key: z.string() }) } },
    },
    ...identityErrors(400, 401, 403),
  },
});

export function registerCreateApiKey(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { apiKey, key } = await createApiKey(services, c.get("actor"), c.req.valid("json"));
    return c.json({ ...apiKey, key }, 201);
  });
}
