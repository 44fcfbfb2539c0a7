import { createRoute, z } from "@hono/zod-openapi";
import { FAMILIES, type FamilyKey, toNodeResponse } from "@hookflow/pipeline";
import { listNodes } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { familyDocs, responseSchema } from "./family-docs.js";
import {
  BEARER,
  errorResponses,
  PageQuery,
  scopeGuard,
  TotalCountHeader,
} from "./resource-route-kit.js";

export function registerListNodes(app: ApiApp, services: ApiServices, key: FamilyKey): void {
  const docs = familyDocs(key);
  const route = createRoute({
    operationId: familyDocs(key).operationIds.list,
    method: "get",
    path: `/api/${FAMILIES[key].path}`,
    tags: [docs.tag],
    summary: `List ${FAMILIES[key].path.replaceAll("-", " ")}`,
    description:
      "Records of the acting context, newest first: the organization's when the request acts " +
      "for one (X-Organization-Id or an organization key), else the caller's personal ones. A " +
      "plain array; the total is in the X-Total-Count header. page defaults to 1, limit to 20 " +
      "(max 100). Needs canvas:read.",
    security: BEARER,
    middleware: [scopeGuard("canvas:read")] as const,
    request: { query: PageQuery },
    responses: {
      200: {
        description: `One page of ${docs.label}s`,
        headers: TotalCountHeader,
        content: { "application/json": { schema: z.array(responseSchema(key)) } },
      },
      ...errorResponses(docs.label, 400, 401, 403),
    },
  });

  app.openapi(route, async (c) => {
    const { page, limit } = c.req.valid("query");
    const { nodes, total } = await listNodes(services, c.get("actor"), {
      family: key,
      page,
      limit,
    });
    c.header("X-Total-Count", String(total));
    return c.json(nodes.map(toNodeResponse), 200);
  });
}
