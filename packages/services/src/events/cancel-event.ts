import { cancelEvent as cancelStoredEvent } from "@hookflow/db";
import { ConflictError } from "@hookflow/domain";
import { createStepPublisher, removeEventJobs } from "@hookflow/queue";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleEvent } from "./visible-event.js";

/**
 * A pending or retrying event becomes cancelled and its queued delivery job is removed
 * (docs/decisions.md, "Delivery"). Irreversible, but the event can be replayed. 409 unless the
 * event is pending or retrying.
 */
export async function cancelEvent(
  ctx: Pick<ServiceContext, "db" | "queues" | "redis" | "keys" | "logger" | "now">,
  actor: Actor,
  input: { eventId: string },
): Promise<void> {
  requireScope(actor, "events:write");
  const { eventId } = input;
  await loadVisibleEvent(ctx, actor, eventId);
  const cancelled = await cancelStoredEvent(ctx.db.db, eventId, ctx.now());
  if (!cancelled) throw new ConflictError("Only a pending or retrying event can be cancelled");
  try {
    await removeEventJobs(ctx.queues, eventId);
  } catch (error) {
    // The cancel is committed; a job left behind finds the event cancelled and stops.
    ctx.logger.warn({ err: error, eventId }, "could not remove the job of a cancelled event");
  }
  try {
    // Streams and sync-mode requests watching the event end here.
    await createStepPublisher({ redis: ctx.redis, keys: ctx.keys }).publish(eventId, {
      kind: "done",
      done: {
        eventId,
        status: 200,
        body: { deliveryStatus: "cancelled", statusCode: 0, latencyMs: 0 },
      },
    });
  } catch (error) {
    ctx.logger.warn({ err: error, eventId }, "could not publish done for a cancelled event");
  }
}
