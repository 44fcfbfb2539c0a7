import { createRoute, type z } from "@hono/zod-openapi";
import type { Scope } from "@hookflow/services";
import {
  BEARER,
  errorResponses,
  scopeGuard,
  WEBHOOKS_TAG,
  WebhookIdParams,
} from "./webhook-route-kit.js";

/**
 * `POST /api/webhooks/{id}/<action>`: the shape shared by toggle-active and the rotations (a
 * webhook id in, one small JSON object out, webhooks:write).
 */
export function webhookActionRoute<S extends z.ZodType>(options: {
  /** The operation's stable id in the OpenAPI document (an SDK method name). */
  operationId: string;
  action: string;
  summary: string;
  description: string;
  responseDescription: string;
  response: S;
  /** The scope it needs (default webhooks:write). */
  scope?: Scope;
}) {
  const scope = options.scope ?? "webhooks:write";
  return createRoute({
    operationId: options.operationId,
    method: "post",
    path: `/api/webhooks/{id}/${options.action}`,
    tags: [WEBHOOKS_TAG],
    summary: options.summary,
    description: options.scope ? options.description : `${options.description} Needs ${scope}.`,
    security: BEARER,
    middleware: [scopeGuard(scope)] as const,
    request: { params: WebhookIdParams },
    responses: {
      200: {
        description: options.responseDescription,
        content: { "application/json": { schema: options.response } },
      },
      ...errorResponses(401, 403, 404),
    },
  });
}
