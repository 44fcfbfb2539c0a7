import { findPipelineNodeById } from "@hookflow/db";
import type { ScheduledWorkflowConfig } from "@hookflow/pipeline";
import { scheduledRetryDelayMs, syncWorkflowScheduler } from "@hookflow/queue";
import type { ApiServices } from "../../services.js";

/**
 * After a committed write of a scheduled workflow (create, PATCH, delete), makes its BullMQ job
 * scheduler match the row as it is now: read back after the commit, so of two racing writes the
 * later sync wins. A Redis failure is logged, not answered: the write stands, each tick re-reads
 * the row (a paused or deleted workflow never fires), and the sweeper restores or removes
 * schedulers from Postgres (docs/decisions.md, Scheduled workflows).
 */
export async function syncSchedulerAfterWrite(services: ApiServices, id: string): Promise<void> {
  try {
    const row = await findPipelineNodeById(services.db.db, id);
    const workflow =
      row?.family === "scheduledWorkflow"
        ? { id, config: row.config as ScheduledWorkflowConfig }
        : undefined;
    await syncWorkflowScheduler(
      services.schedules,
      id,
      workflow,
      scheduledRetryDelayMs(services.config.delayScale),
    );
  } catch (error) {
    services.logger.error(
      { err: error, workflowId: id },
      "could not update a scheduled workflow's scheduler; the sweeper will restore it",
    );
  }
}
