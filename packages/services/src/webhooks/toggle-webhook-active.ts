import { toggleWebhookActive as toggleWebhookActiveRow } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleWebhook, publishWebhookChanged } from "./webhook-records.js";

/** Flips whether the webhook delivers and answers the new value. */
export async function toggleWebhookActive(
  ctx: ServiceContext,
  actor: Actor,
  input: { id: string },
): Promise<{ isActive: boolean }> {
  requireScope(actor, "webhooks:write");
  const { id } = input;
  await loadVisibleWebhook(ctx, actor, id);
  const isActive = await toggleWebhookActiveRow(ctx.db.db, id, ctx.now());
  if (isActive === undefined) throw new NotFoundError("Webhook not found");
  await publishWebhookChanged(ctx, id);
  return { isActive };
}
