import { createRoute, z } from "@hono/zod-openapi";
import type { ApiApp } from "../../http/api-app.js";
import { identityContextOf } from "../../identity/context.js";
import { createApiKey } from "../../identity/create-api-key.js";
import { PublicApiKey } from "../../identity/present.js";
import { ApiKeyFields } from "../../identity/schemas.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "../auth/identity-error-docs.js";
import { requireSession } from "../organizations/require-session.js";

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
    const actor = c.get("actor");
    requireSession(actor, "Managing API keys");
    const { apiKey, key } = await createApiKey(identityContextOf(services), {
      ...c.req.valid("json"),
      userId: actor.userId,
    });
    return c.json({ ...apiKey, key }, 201);
  });
}
