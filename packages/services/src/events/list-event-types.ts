import { listEventTypes as queryEventTypes } from "@hookflow/db";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { eventScopeFor } from "./visible-event.js";

/**
 * The distinct top-level `type`/`event` values of the visible events (of one webhook when
 * `webhookId` is given), sorted.
 */
export async function listEventTypes(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { webhookId?: string },
): Promise<string[]> {
  requireScope(actor, "events:read");
  const scope = await eventScopeFor(ctx, actor, input.webhookId);
  return queryEventTypes(ctx.db.db, scope);
}
