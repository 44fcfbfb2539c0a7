import { createRoute } from "@hono/zod-openapi";
import { insertCredential } from "@hookflow/db";
import { newId, parseCredentialData } from "@hookflow/domain";
import { ownershipOf } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { BEARER, scopeGuard } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { json, TAG } from "./credential-route-kit.js";
import {
  CreateCredentialInput,
  CredentialResponse,
  credentialErrors,
  sealCredentialData,
  toCredentialResponse,
} from "./credential-schemas.js";

export function registerCreateCredential(app: ApiApp, services: ApiServices): void {
  const { keyRing } = services;
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
    const body = c.req.valid("json");
    const data = parseCredentialData(body.type, body.data);
    const now = services.now();
    const id = newId("credential", now.getTime());
    const row = await insertCredential(services.db.db, {
      id,
      ...ownershipOf(c.get("actor")),
      name: body.name,
      type: body.type,
      data: sealCredentialData(keyRing, id, data),
      createdAt: now,
      updatedAt: now,
    });
    return c.json(toCredentialResponse(keyRing, row), 201);
  });
}
