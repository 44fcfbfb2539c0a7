import { listWebhooksPage } from "@hookflow/db";
import type { WebhookResponse } from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { WebhooksContext } from "./context.js";
import { webhookBody } from "./webhook-records.js";

/**
 * One page of the acting context's webhooks, newest first: the organization's when the request
 * acts for one (X-Organization-Id or an organization key), else the caller's personal webhooks.
 */
export async function listWebhooks(
  ctx: Pick<WebhooksContext, "db" | "keyRing" | "config">,
  actor: Actor,
  input: { page: number; limit: number },
): Promise<{ webhooks: WebhookResponse[]; total: number }> {
  requireScope(actor, "webhooks:read");
  const { page, limit } = input;
  const { rows, total } = await listWebhooksPage(ctx.db.db, {
    scope:
      actor.organizationId !== null
        ? { organizationId: actor.organizationId }
        : { personalOf: actor.userId },
    offset: (page - 1) * limit,
    limit,
  });
  return { webhooks: rows.map((row) => webhookBody(ctx, row)), total };
}
