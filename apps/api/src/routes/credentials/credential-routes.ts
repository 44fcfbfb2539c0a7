import { createRoute, z } from "@hono/zod-openapi";
import {
  deleteCredential,
  findCredentialById,
  findNodesUsingCredential,
  insertCredential,
  listCredentialsPage,
  updateCredential,
} from "@hookflow/db";
import { ConflictError, newId, parseCredentialData, ValidationError } from "@hookflow/domain";
import { assertVisible, ownershipOf } from "../../auth/access.js";
import type { Actor } from "../../auth/actor.js";
import type { ApiApp } from "../../http/api-app.js";
import { actingScope, BEARER, scopeGuard } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { idParams, PageQuery, TotalCountHeader } from "../nodes/resource-route-kit.js";
import {
  CreateCredentialInput,
  CredentialResponse,
  credentialErrors,
  isCredentialType,
  sealCredentialData,
  toCredentialResponse,
  UpdateCredentialInput,
} from "./credential-schemas.js";

const TAG = "Credentials";
const ID = idParams("cred_01J9Z3K8Q4T6V2X7Y5W0A1B2C3");
const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });

async function loadVisible(services: ApiServices, actor: Actor, id: string) {
  const row = await findCredentialById(services.db.db, id);
  return assertVisible(actor, row, "Credential");
}

/**
 * `/api/credentials`: list, create, get, PATCH, delete (docs/decisions.md, Credentials). Data is
 * sealed before it is stored and never answered; scopes are those of the canvas.
 */
export function registerCredentialRoutes(app: ApiApp, services: ApiServices): void {
  const { keyRing } = services;
  const list = createRoute({
    operationId: "listCredentials",
    method: "get",
    path: "/api/credentials",
    tags: [TAG],
    summary: "List credentials",
    description:
      "The acting context's credentials, newest first, without their data. Needs canvas:read.",
    security: BEARER,
    middleware: [scopeGuard("canvas:read")] as const,
    request: { query: PageQuery },
    responses: {
      200: {
        description: "One page",
        headers: TotalCountHeader,
        ...json(z.array(CredentialResponse)),
      },
      ...credentialErrors(400, 401, 403),
    },
  });
  app.openapi(list, async (c) => {
    const { page, limit } = c.req.valid("query");
    const { rows, total } = await listCredentialsPage(services.db.db, {
      scope: actingScope(c.get("actor")),
      offset: (page - 1) * limit,
      limit,
    });
    c.header("X-Total-Count", String(total));
    return c.json(
      rows.map((row) => toCredentialResponse(keyRing, row)),
      200,
    );
  });

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
    const row = await loadVisible(services, c.get("actor"), c.req.valid("param").id);
    return c.json(toCredentialResponse(keyRing, row), 200);
  });

  registerUpdateCredential(app, services);
  registerDeleteCredential(app, services);
}

function registerUpdateCredential(app: ApiApp, services: ApiServices): void {
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
    const row = await loadVisible(services, c.get("actor"), id);
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

function registerDeleteCredential(app: ApiApp, services: ApiServices): void {
  const route = createRoute({
    operationId: "deleteCredential",
    method: "delete",
    path: "/api/credentials/{id}",
    tags: [TAG],
    summary: "Delete a credential",
    description: "409 naming a node that still uses it. Needs canvas:write.",
    security: BEARER,
    middleware: [scopeGuard("canvas:write")] as const,
    request: { params: ID },
    responses: { 204: { description: "Deleted" }, ...credentialErrors(401, 403, 404, 409) },
  });
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    await loadVisible(services, c.get("actor"), id);
    const users = await findNodesUsingCredential(services.db.db, id);
    const [first] = users;
    if (first) {
      throw new ConflictError(
        `Credential is used by ${first.family} node ${first.id}; change or delete it first`,
      );
    }
    await deleteCredential(services.db.db, id);
    return c.body(null, 204);
  });
}
