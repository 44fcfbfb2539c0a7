import {
  createWebhookStreamToken as signStreamToken,
  WEBHOOK_STREAM_TOKEN_TTL_MS,
} from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { WebhooksContext } from "./context.js";
import { loadVisibleWebhook } from "./webhook-records.js";

export interface WebhookStreamToken {
  token: string;
  /** ISO 8601; the stream ends then. */
  expiresAt: string;
  /** The stream to open with the token. */
  url: string;
}

/**
 * A token for the webhook's live stream, valid 5 minutes for this webhook and caller
 * (docs/decisions.md, "Webhook live stream"). The stream shows events: a key needs events:read
 * as well as webhooks:read.
 */
export async function createWebhookStreamToken(
  ctx: Pick<WebhooksContext, "db" | "now" | "config">,
  actor: Actor,
  input: { id: string },
): Promise<WebhookStreamToken> {
  requireScope(actor, "webhooks:read");
  requireScope(actor, "events:read");
  const webhook = await loadVisibleWebhook(ctx, actor, input.id);
  const expiresAtMs = ctx.now().getTime() + WEBHOOK_STREAM_TOKEN_TTL_MS;
  const token = signStreamToken(ctx.config.secret, {
    webhookId: webhook.id,
    userId: actor.userId,
    expiresAtMs,
  });
  return {
    token,
    expiresAt: new Date(expiresAtMs).toISOString(),
    url: `${ctx.config.publicBaseUrl}/api/webhooks/${webhook.id}/stream`,
  };
}
