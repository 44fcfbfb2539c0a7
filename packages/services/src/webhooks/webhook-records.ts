import { findWebhookById, type WebhookRow } from "@hookflow/db";
import { openWebhookSecrets, toWebhookResponse, type WebhookResponse } from "@hookflow/domain";
import { WebhookChanged } from "@hookflow/queue";
import { assertVisible } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import type { WebhooksContext } from "./context.js";

/** The webhook with this id if the actor may see it: 404 when absent, 403 when not theirs. */
export async function loadVisibleWebhook(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  id: string,
): Promise<WebhookRow> {
  return assertVisible(actor, await findWebhookById(ctx.db.db, id), "Webhook");
}

/** The response body of a stored webhook: its token and signing secret opened for the owner. */
export function webhookBody(
  ctx: Pick<WebhooksContext, "keyRing" | "config">,
  row: WebhookRow,
): WebhookResponse {
  const secrets = openWebhookSecrets(ctx.keyRing, row);
  return toWebhookResponse(row, secrets, ctx.config.publicBaseUrl);
}

/**
 * Tells every ingress and worker that a webhook changed, so cached copies (every cached token of
 * the webhook included) are dropped at once. The database change is already committed, so a
 * Redis failure is logged rather than failing the request (caches also expire).
 */
export async function publishWebhookChanged(
  ctx: Pick<ServiceContext, "redis" | "keys" | "logger">,
  webhookId: string,
): Promise<void> {
  const message = WebhookChanged.parse({ webhookId });
  try {
    await ctx.redis.publish(ctx.keys.webhookChangedChannel, JSON.stringify(message));
  } catch (error) {
    ctx.logger.error({ err: error, webhookId }, "could not publish webhook change");
  }
}
