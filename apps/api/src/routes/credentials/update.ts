import { createRoute } from "@hono/zod-openapi";
import { updateCredential } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { BEARER, scopeGuard } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { ID, json, TAG } from "./credential-route-kit.js";
import {
  CredentialResponse,
  credentialErrors,
  toCredentialResponse,
  UpdateCredentialInput,
} from "./credential-schemas.js";

export function registerUpdateCredential(app: ApiApp, services: ApiServices): void {
  const route = createRoute({
    operationId: "updateCredential",
    method: "patch",
    path: "/api/credentials/{id}",
    tags: [TAG],
    summary: "Update a credential",
    description:
      "Renames it and/or replaces its data whole (checked against its type, which never " +
      "changes). Needs canvas:write.",
    security: BEARER,
    middleware: [scopeGuard("canvas:write")] as const,
    request: {
      params: ID,
      body: { content: { "application/json": { schema: UpdateCredentialInput } }, required: true },
    },
    responses: {
      200: { description: "The credential", ...json(CredentialResponse) },
      ...credentialErrors(400, 401, 403, 404),
    },
  });
  app.openapi(route, async (c) => {
    const credential = await updateCredential(services, c.get("actor"), {
      ...c.req.valid("json"),
      id: c.req.valid("param").id,
    });
    return c.json(toCredentialResponse(credential), 200);
  });
}
