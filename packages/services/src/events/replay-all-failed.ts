import { replayFailedEventsInBatches } from "@hookflow/db";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { enqueueReopenedEvents } from "./event-jobs.js";
import { eventScopeFor } from "./visible-event.js";

export interface ReplayAllContext extends Pick<ServiceContext, "db" | "queues" | "now"> {
  /** Failed events reopened and queued per batch (and held in memory at once). */
  replayAllBatchSize: number;
}

/**
 * Every failed event of a visible webhook goes back to pending and is queued, in arrival order,
 * batch by batch, so any number is replayed in bounded memory; events arriving after the call
 * are left alone. If the queue fails midway (503), the events already reopened stay pending and
 * the sweeper queues them. Answers how many were queued.
 */
export async function replayAllFailed(
  ctx: ReplayAllContext,
  actor: Actor,
  input: { webhookId: string },
): Promise<{ queued: number }> {
  requireScope(actor, "events:write");
  const { webhookId } = input;
  await eventScopeFor(ctx, actor, webhookId);
  let queued = 0;
  for await (const batch of replayFailedEventsInBatches(ctx.db.db, {
    webhookId,
    now: ctx.now(),
    batchSize: ctx.replayAllBatchSize,
  })) {
    await enqueueReopenedEvents(ctx.queues, batch);
    queued += batch.length;
  }
  return { queued };
}
