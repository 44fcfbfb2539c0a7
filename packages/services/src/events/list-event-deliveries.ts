import { listDeliveryAttemptsOfEvent, type StoredDeliveryAttempt } from "@hookflow/db";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleEvent } from "./visible-event.js";

/** Every recorded delivery attempt of a visible event, oldest first. */
export async function listEventDeliveries(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { eventId: string },
): Promise<StoredDeliveryAttempt[]> {
  requireScope(actor, "deliveries:read");
  await loadVisibleEvent(ctx, actor, input.eventId);
  return listDeliveryAttemptsOfEvent(ctx.db.db, input.eventId);
}
