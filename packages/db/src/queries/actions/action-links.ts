import type { Database, DbHandle } from "../../client.js";
import { and, asc, count, eq, inArray, isNull, ne, sql } from "../../drizzle.js";
import { pipelineNodes } from "../../schema/index.js";
import type { DbExecutor, PipelineNodeRow } from "../pipeline-nodes/node-rows.js";

/** Action nodes (of `families`) naming `inputId` among their inputNodes, other than `exceptId`. */
export async function countActionsLinkedTo(
  db: Database | DbExecutor,
  input: { inputId: string; families: readonly string[]; exceptId: string },
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(pipelineNodes)
    .where(
      and(
        inArray(pipelineNodes.family, [...input.families]),
        sql`${pipelineNodes.inputNodes} @> ${JSON.stringify([{ nodeId: input.inputId }])}::jsonb`,
        ne(pipelineNodes.id, input.exceptId),
      ),
    );
  return row?.n ?? 0;
}

/** Gmail actions of one owner scope (an organization's, or a user's personal ones), oldest first. */
export async function findGmailAiActions(
  handle: DbHandle,
  owner: { ownerId: string; organizationId: string | null },
): Promise<PipelineNodeRow[]> {
  const scope =
    owner.organizationId !== null
      ? eq(pipelineNodes.organizationId, owner.organizationId)
      : and(eq(pipelineNodes.ownerId, owner.ownerId), isNull(pipelineNodes.organizationId));
  return handle.db
    .select()
    .from(pipelineNodes)
    .where(and(eq(pipelineNodes.family, "gmailAction"), scope))
    .orderBy(asc(pipelineNodes.createdAt), asc(pipelineNodes.id))
    .limit(20);
}
