import { createRoute } from "@hono/zod-openapi";
import { getCredential } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { BEARER, scopeGuard } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { ID, json, TAG } from "./credential-route-kit.js";
import {
  CredentialResponse,
  credentialErrors,
  toCredentialResponse,
} from "./credential-schemas.js";

export function registerGetCredential(app: ApiApp, services: ApiServices): void {
  const get = createRoute({
    operationId: "getCredential",
    method: "get",
    path: "/api/credentials/{id}",
    tags: [TAG],
    summary: "Get a credential",
    description: "Without its data. Needs canvas:read.",
    security: BEARER,
    middleware: [scopeGuard("canvas:read")] as const,
    request: { params: ID },
    responses: {
      200: { description: "The credential", ...json(CredentialResponse) },
      ...credentialErrors(401, 403, 404),
    },
  });
  app.openapi(get, async (c) => {
    const credential = await getCredential(services, c.get("actor"), c.req.valid("param"));
    return c.json(toCredentialResponse(credential), 200);
  });
}
