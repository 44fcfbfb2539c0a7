import { findPipelineNodeById } from "@hookflow/db";
import type { ScheduledWorkflowConfig } from "@hookflow/pipeline";
import { scheduledRetryDelayMs, syncWorkflowScheduler } from "@hookflow/queue";
import type { ServiceContext } from "../context.js";

/** What keeping a workflow's job scheduler in step needs: the delay scale of its retries. */
export interface ScheduleSyncContext extends Pick<ServiceContext, "db" | "schedules" | "logger"> {
  config: { delayScale: number };
}

/**
 * After a committed write of a scheduled workflow (create, PATCH, delete), makes its BullMQ job
 * scheduler match the row as it is now: read back after the commit, so of two racing writes the
 * later sync wins. A Redis failure is logged, not answered: the write stands, each tick re-reads
 * the row (a paused or deleted workflow never fires), and the sweeper restores or removes
 * schedulers from Postgres (docs/decisions.md, Scheduled workflows).
 */
export async function syncSchedulerAfterWrite(ctx: ScheduleSyncContext, id: string): Promise<void> {
  try {
    const row = await findPipelineNodeById(ctx.db.db, id);
    const workflow =
      row?.family === "scheduledWorkflow"
        ? { id, config: row.config as ScheduledWorkflowConfig }
        : undefined;
    await syncWorkflowScheduler(
      ctx.schedules,
      id,
      workflow,
      scheduledRetryDelayMs(ctx.config.delayScale),
    );
  } catch (error) {
    ctx.logger.error(
      { err: error, workflowId: id },
      "could not update a scheduled workflow's scheduler; the sweeper will restore it",
    );
  }
}
