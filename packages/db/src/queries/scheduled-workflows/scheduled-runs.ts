import type { OwnerScope } from "@hookflow/domain";
import type { Database } from "../../client.js";
import { and, asc, count, desc, eq, gt, isNull, sql } from "../../drizzle.js";
import { events, pipelineNodes, scheduledWorkflowRuns } from "../../schema/index.js";

export type ScheduledRunRow = typeof scheduledWorkflowRuns.$inferSelect;
export type ScheduledRunStatus = "running" | "retrying" | "succeeded" | "failed";

export interface ClaimScheduledRun {
  /** Used when the tick has no row yet. */
  id: string;
  workflowId: string;
  scheduledFor: Date;
  mode: "url" | "webhook";
  now: Date;
  /** A `running` row older than this was left by a worker that died: it may be taken over. */
  staleBefore: Date;
}

/**
 * Claims a tick for this worker: inserts its run, or takes over a run whose previous attempt
 * failed (`retrying`) or whose worker died (`running` since before `staleBefore`). Returns the
 * run's id and attempt number, or undefined when the tick is someone else's or already over, so
 * a tick fires once however many jobs carry it.
 */
export async function claimScheduledRun(
  db: Database,
  claim: ClaimScheduledRun,
): Promise<{ id: string; attempts: number } | undefined> {
  const runs = scheduledWorkflowRuns;
  const [row] = await db
    .insert(runs)
    .values({
      id: claim.id,
      workflowId: claim.workflowId,
      scheduledFor: claim.scheduledFor,
      status: "running",
      mode: claim.mode,
      attempts: 1,
      startedAt: claim.now,
    })
    .onConflictDoUpdate({
      target: [runs.workflowId, runs.scheduledFor],
      set: {
        status: "running",
        attempts: sql`${runs.attempts} + 1`,
        startedAt: claim.now,
        error: null,
      },
      setWhere: sql`${runs.status} = 'retrying' or (${runs.status} = 'running' and ${runs.startedAt} < ${claim.staleBefore.toISOString()}::timestamptz)`,
    })
    .returning({ id: runs.id, attempts: runs.attempts });
  return row;
}

export interface ScheduledRunResult {
  status: Exclude<ScheduledRunStatus, "running">;
  statusCode?: number | null;
  responseBody?: string | null;
  error?: string | null;
  eventId?: string | null;
  /** Set when the run is over (`succeeded`, `failed`); a `retrying` run has none. */
  finishedAt: Date | null;
}

/** Records what an attempt of a claimed run came to. */
export async function finishScheduledRun(
  db: Pick<Database, "update">,
  runId: string,
  result: ScheduledRunResult,
): Promise<void> {
  await db
    .update(scheduledWorkflowRuns)
    .set({
      status: result.status,
      statusCode: result.statusCode ?? null,
      responseBody: result.responseBody ?? null,
      error: result.error ?? null,
      eventId: result.eventId ?? null,
      finishedAt: result.finishedAt,
    })
    .where(eq(scheduledWorkflowRuns.id, runId));
}

/** A tick's event and its run's success, in one transaction: the event exists iff the run says so. */
export async function recordInjectedEvent(
  db: Database,
  runId: string,
  event: typeof events.$inferInsert,
  finishedAt: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(events).values(event);
    await finishScheduledRun(tx, runId, {
      status: "succeeded",
      eventId: event.id,
      finishedAt,
    });
  });
}

/** One page of a workflow's runs, latest tick first, and their total. */
export async function listScheduledRuns(
  db: Database,
  workflowId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: ScheduledRunRow[]; total: number }> {
  const where = eq(scheduledWorkflowRuns.workflowId, workflowId);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(scheduledWorkflowRuns)
      .where(where)
      .orderBy(desc(scheduledWorkflowRuns.scheduledFor))
      .offset(page.offset)
      .limit(page.limit),
    db.select({ total: count() }).from(scheduledWorkflowRuns).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

export interface ScheduledWorkflowRow {
  id: string;
  ownerId: string;
  organizationId: string | null;
  config: Record<string, unknown>;
}

/** Scheduled workflows by id order after `afterId` (the sweeper's pages over every one). */
export async function findScheduledWorkflowsPage(
  db: Database,
  afterId: string | null,
  limit: number,
): Promise<ScheduledWorkflowRow[]> {
  const family = eq(pipelineNodes.family, "scheduledWorkflow");
  return db
    .select({
      id: pipelineNodes.id,
      ownerId: pipelineNodes.ownerId,
      organizationId: pipelineNodes.organizationId,
      config: pipelineNodes.config,
    })
    .from(pipelineNodes)
    .where(afterId === null ? family : and(family, gt(pipelineNodes.id, afterId)))
    .orderBy(asc(pipelineNodes.id))
    .limit(limit);
}

/**
 * Deletes the runs of these workflows beyond the `keep` latest ticks of each, so a workflow that
 * fires every second keeps a bounded history. Returns how many rows went.
 */
export async function pruneScheduledRuns(
  db: Database,
  workflowIds: readonly string[],
  keep: number,
): Promise<number> {
  if (workflowIds.length === 0) return 0;
  const ids = sql`array[${sql.join(
    workflowIds.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;
  const deleted = await db.execute(sql`
    delete from scheduled_workflow_runs where id in (
      select id from (
        select id, row_number() over (partition by workflow_id order by scheduled_for desc) as rank
        from scheduled_workflow_runs where workflow_id = any(${ids})
      ) ranked where rank > ${keep}
    )`);
  return deleted.count;
}

/** How many scheduled workflows an owner scope has (its cap is checked on create). */
export async function countScheduledWorkflowsOfScope(
  db: Pick<Database, "select">,
  scope: OwnerScope,
): Promise<number> {
  const owner =
    "organizationId" in scope
      ? eq(pipelineNodes.organizationId, scope.organizationId)
      : and(eq(pipelineNodes.ownerId, scope.personalOf), isNull(pipelineNodes.organizationId));
  const [row] = await db
    .select({ total: count() })
    .from(pipelineNodes)
    .where(and(eq(pipelineNodes.family, "scheduledWorkflow"), owner));
  return row?.total ?? 0;
}
