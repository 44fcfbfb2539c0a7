import { type EventStepRecord, listEventSteps } from "@hookflow/db";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleEvent } from "./visible-event.js";

/** Every step the event's node graph recorded, oldest first. */
export async function getEventSteps(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { id: string },
): Promise<EventStepRecord[]> {
  requireScope(actor, "events:read");
  await loadVisibleEvent(ctx, actor, input.id);
  return listEventSteps(ctx.db.db, input.id);
}
