import { type EventRow, type EventScope, findEventWithOwner, findWebhookById } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import { assertVisible } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";

/** The event if the actor may see its webhook: 404 when absent, 403 when not theirs. */
export async function loadVisibleEvent(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  id: string,
): Promise<EventRow> {
  const found = await findEventWithOwner(ctx.db.db, id);
  if (!found) throw new NotFoundError("Event not found");
  assertVisible(actor, found.webhook, "Event");
  return found.event;
}

/**
 * The events a request may read: those of one webhook when `webhookId` is given (it must be
 * visible: 404 when absent, 403 when not theirs), else those of the acting context's webhooks
 * (the organization's when acting for one, else the caller's personal webhooks), as for webhook
 * lists.
 */
export async function eventScopeFor(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  webhookId: string | undefined,
): Promise<EventScope> {
  if (webhookId !== undefined) {
    assertVisible(actor, await findWebhookById(ctx.db.db, webhookId), "Webhook");
    return { webhookId };
  }
  return actor.organizationId !== null
    ? { organizationId: actor.organizationId }
    : { personalOf: actor.userId };
}
