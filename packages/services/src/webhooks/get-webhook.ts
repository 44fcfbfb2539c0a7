import type { WebhookResponse } from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { WebhooksContext } from "./context.js";
import { loadVisibleWebhook, webhookBody } from "./webhook-records.js";

/** One webhook the actor may see, its token and signing secret opened. */
export async function getWebhook(
  ctx: Pick<WebhooksContext, "db" | "keyRing" | "config">,
  actor: Actor,
  input: { id: string },
): Promise<WebhookResponse> {
  requireScope(actor, "webhooks:read");
  return webhookBody(ctx, await loadVisibleWebhook(ctx, actor, input.id));
}
