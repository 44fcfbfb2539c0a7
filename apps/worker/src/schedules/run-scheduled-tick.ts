import { claimScheduledRun, findPipelineNodeById, finishScheduledRun } from "@hookflow/db";
import { newPrefixedId } from "@hookflow/domain";
import { type PipelineNode, ScheduledWorkflowConfig } from "@hookflow/pipeline";
import { ScheduleJobData, tickTimeOf } from "@hookflow/queue";
import type { Job } from "bullmq";
import type { WorkerServices } from "../services.js";
import { callScheduledUrl, RetryScheduledCall } from "./call-scheduled-url.js";
import { injectScheduledEvent } from "./inject-scheduled-event.js";

/** A tick this worker holds the run of. */
export interface ClaimedTick {
  workflowId: string;
  scheduledFor: Date;
  runId: string;
  /** No attempt of the job follows this one: a failure now is final. */
  lastAttempt: boolean;
}

/**
 * A `running` run older than this was left by a worker that died mid-call (a live one is done
 * within the delivery timeout): a later attempt of the same tick may take it over.
 */
function staleAfterMs(services: WorkerServices): number {
  return services.config.deliveryTimeoutMs * 2 + 10_000;
}

async function loadWorkflow(
  services: WorkerServices,
  id: string,
): Promise<PipelineNode<"scheduledWorkflow"> | undefined> {
  const row = await findPipelineNodeById(services.db.db, id);
  if (row?.family !== "scheduledWorkflow") return undefined;
  const config = ScheduledWorkflowConfig.safeParse(row.config);
  if (!config.success) {
    services.logger.warn({ workflowId: id }, "a stored scheduled workflow no longer validates");
    return undefined;
  }
  return {
    id: row.id,
    family: "scheduledWorkflow",
    name: row.name,
    ownerId: row.ownerId,
    organizationId: row.organizationId,
    inputNodes: [],
    config: config.data,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * One tick of a scheduled workflow (docs/decisions.md, Scheduled workflows). The row is read
 * again on every tick, so a workflow paused, edited or deleted since its scheduler was set acts
 * as it is now (a paused or deleted one does nothing; the sweeper drops its scheduler). The run
 * is claimed in Postgres before anything happens, keyed by workflow and tick, so a tick fires
 * once whichever and however many workers see its job.
 */
export async function runScheduledTick(
  services: WorkerServices,
  job: Job<ScheduleJobData>,
): Promise<void> {
  const { workflowId } = ScheduleJobData.parse(job.data);
  const workflow = await loadWorkflow(services, workflowId);
  if (!workflow?.config.isActive) return;
  const { config } = workflow;
  const scheduledFor = tickTimeOf(job);
  const now = services.now();
  const claim = await claimScheduledRun(services.db.db, {
    id: newPrefixedId("swr", now.getTime()),
    workflowId,
    scheduledFor,
    mode: config.webhookId ? "webhook" : "url",
    now,
    staleBefore: new Date(now.getTime() - staleAfterMs(services)),
  });
  if (!claim) return;
  const tick: ClaimedTick = {
    workflowId,
    scheduledFor,
    runId: claim.id,
    lastAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
  };
  try {
    if (config.webhookId) {
      await injectScheduledEvent(services, workflow, config.webhookId, tick);
    } else if (config.url) {
      await callScheduledUrl(services, { ...config, url: config.url }, tick);
    }
  } catch (error) {
    if (!(error instanceof RetryScheduledCall)) await releaseRun(services, tick, error);
    throw error;
  }
}

/**
 * A fault of ours (Postgres or Redis down mid-tick): the run is left for the job's next attempt
 * (`retrying`) or, on the last one, `failed`, so a retried job can claim it again.
 */
async function releaseRun(services: WorkerServices, tick: ClaimedTick, error: unknown) {
  // The cause is logged, not stored: runs are shown to users, internal messages are not.
  services.logger.warn({ err: error, runId: tick.runId }, "scheduled tick failed internally");
  await finishScheduledRun(services.db.db, tick.runId, {
    status: tick.lastAttempt ? "failed" : "retrying",
    error: "internal error",
    finishedAt: tick.lastAttempt ? services.now() : null,
  }).catch((cause: unknown) =>
    services.logger.warn({ err: cause, runId: tick.runId }, "could not release a scheduled run"),
  );
}
