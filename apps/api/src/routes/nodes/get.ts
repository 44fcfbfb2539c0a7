import { createRoute } from "@hono/zod-openapi";
import { FAMILIES, type FamilyKey, toNodeResponse } from "@hookflow/pipeline";
import { getNode } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { familyDocs, responseSchema } from "./family-docs.js";
import { BEARER, errorResponses, idParams, scopeGuard } from "./resource-route-kit.js";

export function registerGetNode(app: ApiApp, services: ApiServices, key: FamilyKey): void {
  const docs = familyDocs(key);
  const route = createRoute({
    operationId: familyDocs(key).operationIds.get,
    method: "get",
    path: `/api/${FAMILIES[key].path}/{id}`,
    tags: [docs.tag],
    summary: `Get ${docs.withArticle}`,
    description: "Needs canvas:read.",
    security: BEARER,
    middleware: [scopeGuard("canvas:read")] as const,
    request: { params: idParams(`${FAMILIES[key].idPrefix}_01J9Z3K8Q4T6V2X7Y5W0A1B2C3`) },
    responses: {
      200: {
        description: `The ${docs.label}`,
        content: { "application/json": { schema: responseSchema(key) } },
      },
      ...errorResponses(docs.label, 401, 403, 404),
    },
  });

  app.openapi(route, async (c) => {
    const node = await getNode(services, c.get("actor"), {
      family: key,
      id: c.req.valid("param").id,
    });
    return c.json(toNodeResponse(node), 200);
  });
}
