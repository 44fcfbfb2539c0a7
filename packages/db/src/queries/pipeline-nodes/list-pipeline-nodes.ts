import { and, count, desc, eq, isNull, type SQL } from "drizzle-orm";
import type { Database } from "../../client.js";
import { pipelineNodes } from "../../schema/index.js";
import type { PipelineNodeRow, RecordListScope } from "./node-rows.js";

export interface ListPipelineNodesOptions {
  family: string;
  scope: RecordListScope;
  offset: number;
  limit: number;
}

function scopeFilter(scope: RecordListScope): SQL | undefined {
  return "organizationId" in scope
    ? eq(pipelineNodes.organizationId, scope.organizationId)
    : and(eq(pipelineNodes.ownerId, scope.personalOf), isNull(pipelineNodes.organizationId));
}

/** One page of a family's nodes in the scope, newest first, and the scope's total. */
export async function listPipelineNodesPage(
  db: Database,
  options: ListPipelineNodesOptions,
): Promise<{ rows: PipelineNodeRow[]; total: number }> {
  const where = and(eq(pipelineNodes.family, options.family), scopeFilter(options.scope));
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(pipelineNodes)
      .where(where)
      .orderBy(desc(pipelineNodes.createdAt), desc(pipelineNodes.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ total: count() }).from(pipelineNodes).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}
