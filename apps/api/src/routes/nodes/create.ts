import { createRoute } from "@hono/zod-openapi";
import { FAMILIES, type FamilyKey, toNodeResponse } from "@hookflow/pipeline";
import { createNode } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { createBodySchema, familyDocs, responseSchema } from "./family-docs.js";
import { BEARER, errorResponses, scopeGuard } from "./resource-route-kit.js";

export function registerCreateNode(app: ApiApp, services: ApiServices, key: FamilyKey): void {
  const docs = familyDocs(key);
  const route = createRoute({
    operationId: familyDocs(key).operationIds.create,
    method: "post",
    path: `/api/${FAMILIES[key].path}`,
    tags: [docs.tag],
    summary: `Create ${docs.withArticle}`,
    description:
      "name is required; fields with a default may be omitted. Every inputNodes entry and " +
      "output reference must name an existing webhook or node the caller can see, of the " +
      "node's own owner (the organization acted for, or the caller's personal space), and the " +
      "node must not close a cycle (400 naming it). One event may not spread through forwards " +
      "(router routes, rate-limiter output webhooks) to more than GRAPH_MAX_DESCENDANTS " +
      "(default 100) events, nor nest forwards deeper than GRAPH_MAX_FORWARD_DEPTH (default 5): " +
      "400 naming the limit when the node's own forwards break it, 409 when the node connects " +
      "existing nodes that do. Lists of mail recipients (notifyEmails) hold at most " +
      `${services.config.mailMaxRecipients} addresses (MAIL_MAX_RECIPIENTS; 400 naming the ` +
      "field). Unknown fields are ignored. Needs canvas:write.",
    security: BEARER,
    middleware: [scopeGuard("canvas:write")] as const,
    request: {
      body: { content: { "application/json": { schema: createBodySchema(key) } }, required: true },
    },
    responses: {
      201: {
        description: `The new ${docs.label}`,
        content: { "application/json": { schema: responseSchema(key) } },
      },
      ...errorResponses(docs.label, 400, 401, 403, 409),
    },
  });

  app.openapi(route, async (c) => {
    const node = await createNode(services, c.get("actor"), {
      family: key,
      body: c.req.valid("json"),
    });
    return c.json(toNodeResponse(node), 201);
  });
}
