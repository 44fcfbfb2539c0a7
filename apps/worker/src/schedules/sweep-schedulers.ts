import {
  type Database,
  findPipelineNodesByIds,
  findScheduledWorkflowsPage,
  pruneScheduledRuns,
} from "@hookflow/db";
import type { ScheduledWorkflowConfig } from "@hookflow/pipeline";
import {
  type ScheduleJobData,
  scheduledRetryDelayMs,
  schedulerMatches,
  syncWorkflowScheduler,
} from "@hookflow/queue";
import type { Queue } from "bullmq";

/** Runs kept per workflow: older ticks are pruned by the sweeper. */
const SCHEDULED_RUNS_KEPT = 1000;

export interface ScheduleSweepState {
  /** The last workflow id of the previous page (null: start again from the first). */
  workflowCursor: string | null;
  /** Offset into the queue's schedulers for the orphan check. */
  schedulerOffset: number;
}

/**
 * Keeps Redis's job schedulers in step with Postgres, one page of each per sweep: every active
 * workflow whose scheduler is missing (Redis lost it) or differs (a sync that failed) is
 * upserted; an inactive one's scheduler is removed; a scheduler whose workflow is gone is
 * removed. Old runs beyond SCHEDULED_RUNS_KEPT are pruned on the way. Returns how many
 * schedulers it changed.
 */
export async function sweepSchedulers(options: {
  db: Database;
  schedules: Queue<ScheduleJobData>;
  state: ScheduleSweepState;
  batchSize: number;
  delayScale: number;
}): Promise<number> {
  const { db, schedules, state, batchSize } = options;
  const retryDelay = scheduledRetryDelayMs(options.delayScale);
  let changed = 0;
  const page = await findScheduledWorkflowsPage(db, state.workflowCursor, batchSize);
  state.workflowCursor = page.length < batchSize ? null : (page.at(-1)?.id ?? null);
  for (const row of page) {
    const workflow = { id: row.id, config: row.config as ScheduledWorkflowConfig };
    if (workflow.config.isActive) {
      if (await schedulerMatches(schedules, workflow)) continue;
    } else if (!(await schedules.getJobScheduler(row.id))) {
      continue;
    }
    await syncWorkflowScheduler(schedules, row.id, workflow, retryDelay);
    changed += 1;
  }
  await pruneScheduledRuns(
    db,
    page.map((row) => row.id),
    SCHEDULED_RUNS_KEPT,
  );

  const schedulers = await schedules.getJobSchedulers(
    state.schedulerOffset,
    state.schedulerOffset + batchSize - 1,
    true,
  );
  state.schedulerOffset = schedulers.length < batchSize ? 0 : state.schedulerOffset + batchSize;
  const ids = schedulers.map((scheduler) => scheduler.key);
  const known = new Set(
    (await findPipelineNodesByIds(db, ids))
      .filter((node) => node.family === "scheduledWorkflow")
      .map((node) => node.id),
  );
  for (const id of ids) {
    if (known.has(id)) continue;
    await schedules.removeJobScheduler(id);
    changed += 1;
  }
  return changed;
}
