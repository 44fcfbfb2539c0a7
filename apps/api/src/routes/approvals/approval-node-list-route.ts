import { createRoute, z } from "@hono/zod-openapi";
import {
  BEARER,
  errorResponses,
  idParams,
  PageQuery,
  scopeGuard,
  TotalCountHeader,
} from "../nodes/resource-route-kit.js";
import { APPROVAL_NODES_TAG } from "./approval-route-kit.js";

/**
 * A paged list under one approval node (`GET /api/approval-nodes/{id}/<list>`): a plain array
 * of `item`, the total in X-Total-Count, needing canvas:read; 404 when the node is not visible.
 */
export function approvalNodeListRoute<List extends string, Item extends z.ZodType>(options: {
  /** The operation's stable id in the OpenAPI document (an SDK method name). */
  operationId: string;
  list: List;
  summary: string;
  description: string;
  pageDescription: string;
  item: Item;
}) {
  return createRoute({
    operationId: options.operationId,
    method: "get",
    path: `/api/approval-nodes/{id}/${options.list}`,
    tags: [APPROVAL_NODES_TAG],
    summary: options.summary,
    description: options.description,
    security: BEARER,
    middleware: [scopeGuard("canvas:read")] as const,
    request: { params: idParams("apr_01J9Z3K8Q4T6V2X7Y5W0A1B2C3"), query: PageQuery },
    responses: {
      200: {
        description: options.pageDescription,
        headers: TotalCountHeader,
        content: { "application/json": { schema: z.array(options.item) } },
      },
      ...errorResponses("Approval node", 400, 401, 403, 404),
    },
  });
}
