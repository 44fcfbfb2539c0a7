import { createRoute } from "@hono/zod-openapi";
import { FAMILIES, type FamilyKey, toNodeResponse } from "@hookflow/pipeline";
import { updateNode } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { familyDocs, patchBodySchema, responseSchema } from "./family-docs.js";
import { BEARER, errorResponses, idParams, scopeGuard } from "./resource-route-kit.js";

export function registerUpdateNode(app: ApiApp, services: ApiServices, key: FamilyKey): void {
  const docs = familyDocs(key);
  const route = createRoute({
    operationId: familyDocs(key).operationIds.update,
    method: "patch",
    path: `/api/${FAMILIES[key].path}/{id}`,
    tags: [docs.tag],
    summary: `Update ${docs.withArticle}`,
    description:
      "Only the fields given change; lists (inputNodes, filters, routes, ...) are replaced " +
      "whole. The merged record is validated as a create would be. References the update adds " +
      "must exist, be visible and belong to the node's own owner, and must not close a cycle " +
      "(400 naming it) nor break a forwarding limit (GRAPH_MAX_DESCENDANTS, " +
      "GRAPH_MAX_FORWARD_DEPTH: 400 when the node's own forwards break it, 409 when the nodes " +
      "it connects do). Lists of mail recipients (notifyEmails) hold at most " +
      `${services.config.mailMaxRecipients} addresses (MAIL_MAX_RECIPIENTS; 400 naming the ` +
      "field). Needs canvas:write.",
    security: BEARER,
    middleware: [scopeGuard("canvas:write")] as const,
    request: {
      params: idParams(`${FAMILIES[key].idPrefix}_01J9Z3K8Q4T6V2X7Y5W0A1B2C3`),
      body: { content: { "application/json": { schema: patchBodySchema(key) } }, required: true },
    },
    responses: {
      200: {
        description: `The updated ${docs.label}`,
        content: { "application/json": { schema: responseSchema(key) } },
      },
      ...errorResponses(docs.label, 400, 401, 403, 404, 409),
    },
  });

  app.openapi(route, async (c) => {
    const node = await updateNode(services, c.get("actor"), {
      family: key,
      id: c.req.valid("param").id,
      body: c.req.valid("json"),
    });
    return c.json(toNodeResponse(node), 200);
  });
}
