import type { OwnerScope } from "@hookflow/domain";
import { and, asc, eq, inArray, isNull, or, type SQL, sql } from "../../drizzle.js";
import { pipelineNodes } from "../../schema/index.js";
import type { DbExecutor, PipelineNodeRow } from "./node-rows.js";

export async function findPipelineNodeById(
  db: DbExecutor,
  id: string,
): Promise<PipelineNodeRow | undefined> {
  const [row] = await db.select().from(pipelineNodes).where(eq(pipelineNodes.id, id)).limit(1);
  return row;
}

/** The nodes with these ids, of any family (missing ids are simply absent). */
export async function findPipelineNodesByIds(
  db: DbExecutor,
  ids: readonly string[],
): Promise<PipelineNodeRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(pipelineNodes)
    .where(inArray(pipelineNodes.id, [...new Set(ids)]));
}

function inputsMention(id: string): SQL {
  return sql`${pipelineNodes.inputNodes} @> ${JSON.stringify([{ nodeId: id }])}::jsonb`;
}

/**
 * Nodes that name any of `ids` in their `inputNodes`: the downstream neighbours of those nodes or
 * webhooks (served by the GIN index on input_nodes).
 */
export async function findPipelineNodesFedBy(
  db: DbExecutor,
  ids: readonly string[],
): Promise<PipelineNodeRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  return db
    .select()
    .from(pipelineNodes)
    .where(or(...unique.map(inputsMention)));
}

/**
 * Every node of an owner scope (an organization's, or a user's personal ones), in creation order:
 * the records one scope's graphs are made of.
 */
export async function findPipelineNodesOfScope(
  db: DbExecutor,
  scope: OwnerScope,
): Promise<PipelineNodeRow[]> {
  const where =
    "organizationId" in scope
      ? eq(pipelineNodes.organizationId, scope.organizationId)
      : and(eq(pipelineNodes.ownerId, scope.personalOf), isNull(pipelineNodes.organizationId));
  return db
    .select()
    .from(pipelineNodes)
    .where(where)
    .orderBy(asc(pipelineNodes.createdAt), asc(pipelineNodes.id));
}

/**
 * Nodes that reference `id` anywhere: in `inputNodes` or inside their config (output webhooks,
 * output transforms), locked for the rest of the transaction (they are about to be rewritten).
 * Ids are opaque tokens, so a quoted occurrence in the config text is a reference; the caller
 * re-reads each config through its family schema.
 */
export async function findPipelineNodesReferencing(
  db: DbExecutor,
  id: string,
): Promise<PipelineNodeRow[]> {
  return db
    .select()
    .from(pipelineNodes)
    .where(
      or(inputsMention(id), sql`strpos(${pipelineNodes.config}::text, ${JSON.stringify(id)}) > 0`),
    )
    .for("update");
}
