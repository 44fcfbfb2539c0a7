import { createRoute } from "@hono/zod-openapi";
import { FAMILIES, type FamilyKey } from "@hookflow/pipeline";
import { deleteNode } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { familyDocs } from "./family-docs.js";
import { BEARER, errorResponses, idParams, scopeGuard } from "./resource-route-kit.js";

export function registerDeleteNode(app: ApiApp, services: ApiServices, key: FamilyKey): void {
  const docs = familyDocs(key);
  const route = createRoute({
    operationId: familyDocs(key).operationIds.delete,
    method: "delete",
    path: `/api/${FAMILIES[key].path}/{id}`,
    tags: [docs.tag],
    summary: `Delete ${docs.withArticle}`,
    description:
      "Deletes the node and, in the same transaction, removes it from every other node that " +
      "references it (their inputNodes and output lists), so the graph never holds a dangling " +
      "edge: nodes fed only by it are left without that input. Needs canvas:write.",
    security: BEARER,
    middleware: [scopeGuard("canvas:write")] as const,
    request: { params: idParams(`${FAMILIES[key].idPrefix}_01J9Z3K8Q4T6V2X7Y5W0A1B2C3`) },
    responses: {
      204: { description: "Deleted" },
      ...errorResponses(docs.label, 401, 403, 404, 409),
    },
  });

  app.openapi(route, async (c) => {
    await deleteNode(services, c.get("actor"), { family: key, id: c.req.valid("param").id });
    return c.body(null, 204);
  });
}
