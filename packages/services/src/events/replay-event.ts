import { replayEvent as reopenEvent } from "@hookflow/db";
import { ConflictError } from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { enqueueReopenedEvents } from "./event-jobs.js";
import { loadVisibleEvent } from "./visible-event.js";

/**
 * Sends an event in a final state (delivered, failed, filtered, cancelled) through delivery
 * again: same id, original payload, status back to pending (docs/decisions.md, "Delivery").
 * 409 while the event is still pending or retrying; 503 when the queue fails (the sweeper
 * enqueues it then).
 */
export async function replayEvent(
  ctx: Pick<ServiceContext, "db" | "queues" | "now">,
  actor: Actor,
  input: { eventId: string },
): Promise<void> {
  requireScope(actor, "events:write");
  await loadVisibleEvent(ctx, actor, input.eventId);
  const reopened = await reopenEvent(ctx.db.db, input.eventId, ctx.now());
  if (!reopened)
    throw new ConflictError(
      "Only a delivered, failed, filtered or cancelled event can be replayed",
    );
  await enqueueReopenedEvents(ctx.queues, [reopened]);
}
