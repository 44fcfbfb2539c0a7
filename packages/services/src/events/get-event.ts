import {
  type ActionRunRecord,
  type EventRow,
  listActionRuns,
  listTargetDeliveriesOfEvent,
  type TargetDeliveryRow,
} from "@hookflow/db";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { type EventChain, eventChainOf } from "./event-chain.js";
import { loadVisibleEvent } from "./visible-event.js";

/** One event with what happened around it. */
export interface EventDetails {
  event: EventRow;
  /** The runs of the post-delivery actions it fired, in the order they started. */
  actionRuns: ActionRunRecord[];
  /** Where each additional target of its webhook stands with it. */
  targets: TargetDeliveryRow[];
  chain: EventChain | null;
}

/** The event (404 when absent, 403 when its webhook is another owner's) and its surroundings. */
export async function getEvent(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { id: string },
): Promise<EventDetails> {
  requireScope(actor, "events:read");
  const event = await loadVisibleEvent(ctx, actor, input.id);
  const [targets, chain, actionRuns] = await Promise.all([
    listTargetDeliveriesOfEvent(ctx.db.db, input.id),
    eventChainOf(ctx, event),
    listActionRuns(ctx.db, input.id),
  ]);
  return { event, actionRuns, targets, chain };
}
