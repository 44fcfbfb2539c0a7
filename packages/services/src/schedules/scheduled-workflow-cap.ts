import { countScheduledWorkflowsOfScope, type DbExecutor } from "@hookflow/db";
import { ConflictError, type OwnerColumns, ownerScopeOf } from "@hookflow/domain";

/**
 * Scheduled workflows one organization or personal space may have: each one is a job scheduler
 * in Redis and, at a tick per second, a job per second for the workers (docs/decisions.md,
 * Scheduled workflows).
 */
const MAX_SCHEDULED_WORKFLOWS_PER_SCOPE = 100;

/** 409 when the owner scope of `node` already has the most scheduled workflows it may have. */
export async function checkScheduledWorkflowCap(db: DbExecutor, node: OwnerColumns): Promise<void> {
  const count = await countScheduledWorkflowsOfScope(db, ownerScopeOf(node));
  if (count >= MAX_SCHEDULED_WORKFLOWS_PER_SCOPE) {
    throw new ConflictError(
      `an organization or personal space has at most ${MAX_SCHEDULED_WORKFLOWS_PER_SCOPE} scheduled workflows; delete one first`,
    );
  }
}
