import { decideApproval } from "@hookflow/db";
import { type ApprovalDecision, NotFoundError } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleNode } from "../nodes/node-records.js";
import { resumeDecided } from "./resume-decided.js";

export interface DecideApprovalEventInput {
  /** The approval node (404 when the actor cannot see it, 403 when another owner's). */
  nodeId: string;
  eventId: string;
  decision: ApprovalDecision;
}

/**
 * Approves or rejects an event waiting at an approval node, once: 404 when it is not waiting
 * there (never parked, already decided, timed out or cancelled). Its path continues at once.
 */
export async function decideApprovalEvent(
  ctx: Pick<ServiceContext, "db" | "queues" | "logger" | "now">,
  actor: Actor,
  input: DecideApprovalEventInput,
): Promise<{ eventId: string; decision: ApprovalDecision; decidedAt: Date }> {
  const { eventId, decision } = input;
  const { id: nodeId } = await loadVisibleNode(ctx, actor, "approval", input.nodeId);
  const decided = await decideApproval(ctx.db.db, {
    target: { nodeId, eventId },
    decision,
    decidedBy: actor.userId,
    now: ctx.now(),
  });
  const first = decided[0];
  if (!first) throw new NotFoundError("Event is not waiting at this approval node");
  await resumeDecided(ctx, decided);
  return { eventId, decision, decidedAt: first.decidedAt };
}
