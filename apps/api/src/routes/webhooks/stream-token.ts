import { z } from "@hono/zod-openapi";
import { createWebhookStreamToken } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { webhookActionRoute } from "./action-route.js";
import { scopeGuard } from "./webhook-route-kit.js";

const StreamTokenBody = z
  .object({
    token: z.string(),
    expiresAt: z.string().openapi({ description: "ISO 8601; the stream ends then" }),
    url: z.string().openapi({ description: "The stream to open with the token" }),
  })
  .openapi("WebhookStreamToken");

const route = webhookActionRoute({
  operationId: "createWebhookStreamToken",
  action: "stream-token",
  summary: "Issue a token for the webhook's live stream",
  description:
    "A token for `GET /api/webhooks/{id}/stream` (in `?token=` for EventSource, or " +
    "`Authorization: Bearer`), valid 5 minutes for this webhook and caller; the stream ends " +
    "when it expires, and the client resumes with a new token and `Last-Event-ID`. Needs " +
    "webhooks:read and events:read.",
  scope: "webhooks:read",
  responseDescription: "The token",
  response: StreamTokenBody,
});

export function registerWebhookStreamToken(app: ApiApp, services: ApiServices): void {
  // The stream shows events: a key needs events:read as well as the route's webhooks:read.
  app.use("/api/webhooks/:id/stream-token", scopeGuard("events:read"));
  app.openapi(route, async (c) => {
    const token = await createWebhookStreamToken(services, c.get("actor"), c.req.valid("param"));
    return c.json(token, 200);
  });
}
