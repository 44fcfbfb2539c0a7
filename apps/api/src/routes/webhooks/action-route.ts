import { createRoute, type z } from "@hono/zod-openapi";
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
}) {
  return createRoute({
    operationId: options.operationId,
    method: "post",
    path: `/api/webhooks/{id}/${options.action}`,
    tags: [WEBHOOKS_TAG],
    summary: options.summary,
    description: `${options.description} Needs webhooks:write.`,
    security: BEARER,
    middleware: [scopeGuard("webhooks:write")] as const,
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
