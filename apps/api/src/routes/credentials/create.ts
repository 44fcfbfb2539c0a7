import { createRoute } from "@hono/zod-openapi";
import { createCredential } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { BEARER, scopeGuard } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { json, TAG } from "./credential-route-kit.js";
import {
  CreateCredentialInput,
  CredentialResponse,
  credentialErrors,
  toCredentialResponse,
} from "./credential-schemas.js";

export function registerCreateCredential(app: ApiApp, services: ApiServices): void {
  const create = createRoute({
    operationId: "createCredential",
    method: "post",
    path: "/api/credentials",
    tags: [TAG],
    summary: "Create a credential",
    description:
      "Stores `data`, checked against the schema of `type` (400 naming `data.<field>`), sealed " +
      "with AES-256-GCM; the answer and every later read show only its non-secret preview. " +
      "Needs canvas:write.",
    security: BEARER,
    middleware: [scopeGuard("canvas:write")] as const,
    request: {
      body: { content: { "application/json": { schema: CreateCredentialInput } }, required: true },
    },
    responses: {
      201: { description: "The credential", ...json(CredentialResponse) },
      ...credentialErrors(400, 401, 403),
    },
  });
  app.openapi(create, async (c) => {
    const credential = await createCredential(services, c.get("actor"), c.req.valid("json"));
    return c.json(toCredentialResponse(credential), 201);
  });
}
