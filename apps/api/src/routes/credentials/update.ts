import { createRoute } from "@hono/zod-openapi";
import { updateCredential } from "@hookflow/db";
import { parseCredentialData, ValidationError } from "@hookflow/domain";
import { assertVisible } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { BEARER, scopeGuard } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { ID, json, loadVisibleCredential, TAG } from "./credential-route-kit.js";
import {
  CredentialResponse,
  credentialErrors,
  isCredentialType,
  sealCredentialData,
  toCredentialResponse,
  UpdateCredentialInput,
} from "./credential-schemas.js";

export function registerUpdateCredential(app: ApiApp, services: ApiServices): void {
  const { keyRing } = services;
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
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const row = await loadVisibleCredential(services, c.get("actor"), id);
    if (!isCredentialType(row.type)) throw new ValidationError("type: unknown credential type");
    const patch: { name?: string; data?: string; updatedAt: Date } = { updatedAt: services.now() };
    if (body.name !== undefined) patch.name = body.name;
    if (body.data !== undefined) {
      patch.data = sealCredentialData(keyRing, id, parseCredentialData(row.type, body.data));
    }
    const updated = await updateCredential(services.db.db, id, patch);
    return c.json(
      toCredentialResponse(keyRing, assertVisible(c.get("actor"), updated, "Credential")),
      200,
    );
  });
}
