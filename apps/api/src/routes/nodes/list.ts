import { createRoute, z } from "@hono/zod-openapi";
import { listPipelineNodesPage } from "@hookflow/db";
import { FAMILIES, type FamilyKey, toNodeResponse } from "@hookflow/pipeline";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { familyDocs, responseSchema } from "./family-docs.js";
import { toPipelineNode } from "./node-records.js";
import {
  actingScope,
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
    const { rows, total } = await listPipelineNodesPage(services.db.db, {
      family: key,
      scope: actingScope(c.get("actor")),
      offset: (page - 1) * limit,
      limit,
    });
    c.header("X-Total-Count", String(total));
    return c.json(
      rows.map((row) => toNodeResponse(toPipelineNode(row))),
      200,
    );
  });
}
