import { createRoute, z } from "@hono/zod-openapi";
import { WebhookResponse } from "@hookflow/domain";
import { listWebhooks } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { pageQueryFields } from "../../http/page-query.js";
import type { ApiServices } from "../../services.js";
import { BEARER, errorResponses, scopeGuard, WEBHOOKS_TAG } from "./webhook-route-kit.js";

const WEBHOOK_PAGE_DEFAULT_LIMIT = 20;
const WEBHOOK_PAGE_MAX_LIMIT = 100;

const ListQuery = z.object(pageQueryFields(WEBHOOK_PAGE_DEFAULT_LIMIT, WEBHOOK_PAGE_MAX_LIMIT));

const route = createRoute({
  operationId: "listWebhooks",
  method: "get",
  path: "/api/webhooks",
  tags: [WEBHOOKS_TAG],
  summary: "List webhooks",
  description:
    "Webhooks of the acting context, newest first: the organization's when the request acts " +
    "for one (X-Organization-Id or an organization key), else the caller's personal webhooks. " +
    "A plain array; the total is in the X-Total-Count header. page defaults to 1, limit to 20 " +
    "(max 100). Needs webhooks:read.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:read")] as const,
  request: { query: ListQuery },
  responses: {
    200: {
      description: "One page of webhooks",
      headers: z.object({
        "X-Total-Count": z.string().openapi({ description: "Total webhooks in this context" }),
      }),
      content: { "application/json": { schema: z.array(WebhookResponse) } },
    },
    ...errorResponses(400, 401, 403),
  },
});

export function registerListWebhooks(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { webhooks, total } = await listWebhooks(services, c.get("actor"), c.req.valid("query"));
    c.header("X-Total-Count", String(total));
    return c.json(webhooks, 200);
  });
}
