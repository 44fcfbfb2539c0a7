import { z } from "@hono/zod-openapi";
import { findWebhookById, type WebhookRow } from "@hookflow/db";
import { openWebhookSecrets, toWebhookResponse, type WebhookResponse } from "@hookflow/domain";
import { WebhookChanged } from "@hookflow/queue";
import type { Actor } from "@hookflow/services";
import { assertVisible } from "@hookflow/services";
import { errorResponsesOf } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";

export { actingScope, BEARER, scopeGuard } from "../../http/route-kit.js";

export const WEBHOOKS_TAG = "Webhooks";

export const WebhookIdParams = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { name: "id", in: "path" }, example: "wh_01J9Z3K8Q4T6V2X7Y5W0A1B2C3" }),
});

const ERROR_TEXT = {
  400: "Invalid request; the message names the field",
  401: "Missing, unknown or expired credential",
  403: "Webhook of another owner, or a key without the scope",
  404: "No webhook with this id",
  409: "A node cannot do without this webhook (a router whose only route leads to it)",
} as const;

/** OpenAPI entries of the error answers a route can give, all in the documented error shape. */
export function errorResponses(...codes: Array<keyof typeof ERROR_TEXT>) {
  return errorResponsesOf(ERROR_TEXT, codes);
}

/** The webhook with this id if the actor may see it: 404 when absent, 403 when not theirs. */
export async function loadVisibleWebhook(
  services: ApiServices,
  actor: Actor,
  id: string,
): Promise<WebhookRow> {
  return assertVisible(actor, await findWebhookById(services.db.db, id), "Webhook");
}

/** The response body of a stored webhook: its token and signing secret opened for the owner. */
export function webhookBody(services: ApiServices, row: WebhookRow): WebhookResponse {
  const secrets = openWebhookSecrets(services.keyRing, row);
  return toWebhookResponse(row, secrets, services.config.publicBaseUrl);
}

/**
 * Tells every ingress and worker that a webhook changed, so cached copies (every cached token of
 * the webhook included) are dropped at once. The database change is already committed, so a
 * Redis failure is logged rather than failing the request (caches also expire).
 */
export async function publishWebhookChanged(
  services: ApiServices,
  webhookId: string,
): Promise<void> {
  const message = WebhookChanged.parse({ webhookId });
  try {
    await services.redis.publish(services.keys.webhookChangedChannel, JSON.stringify(message));
  } catch (error) {
    services.logger.error({ err: error, webhookId }, "could not publish webhook change");
  }
}
