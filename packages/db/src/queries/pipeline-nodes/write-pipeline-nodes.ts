import { type OwnerScope, ownerScopeKey } from "@hookflow/domain";
import type { Database } from "../../client.js";
import { eq, sql } from "../../drizzle.js";
import { pipelineNodes } from "../../schema/index.js";
import type {
  DbExecutor,
  NewPipelineNodeRow,
  PipelineNodePatch,
  PipelineNodeRow,
} from "./node-rows.js";

/** The advisory-lock class of graph writes; the second key is the owner scope's hash. */
const GRAPH_WRITE_LOCK = 0x686b666c; // "hkfl"

/**
 * Runs `write` in a transaction holding the graph write lock of each owner scope given (an
 * organization, or a user's personal space), so the references, cycle and forwarding checks it
 * reads about those scopes stay true until it commits. A graph only joins records of one scope,
 * so writes of different tenants never wait for each other; two writes in one scope are
 * serialised. Several scopes are locked in a fixed order (no deadlock between two such writes).
 */
export async function withGraphWriteLock<T>(
  db: Database,
  scopes: OwnerScope | readonly OwnerScope[],
  write: (tx: DbExecutor) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await lockGraphScopes(tx, Array.isArray(scopes) ? scopes : [scopes as OwnerScope]);
    return write(tx);
  });
}

/**
 * Takes the graph write locks of these scopes until the transaction ends, in a fixed order. A
 * transaction that takes locks of several scopes takes them all in one call.
 */
export async function lockGraphScopes(
  tx: DbExecutor,
  scopes: readonly OwnerScope[],
): Promise<void> {
  const keys = [...new Set(scopes.map(ownerScopeKey))].sort();
  for (const key of keys) {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${GRAPH_WRITE_LOCK}::int, hashtext(${key}::text))`,
    );
  }
}

export async function insertPipelineNode(
  db: DbExecutor,
  values: NewPipelineNodeRow,
): Promise<PipelineNodeRow> {
  const [row] = await db.insert(pipelineNodes).values(values).returning();
  if (!row) throw new Error("insert into pipeline_nodes returned no row");
  return row;
}

/** Writes name, config and inputNodes; undefined when the node is gone. */
export async function updatePipelineNode(
  db: DbExecutor,
  id: string,
  patch: PipelineNodePatch,
): Promise<PipelineNodeRow | undefined> {
  const [row] = await db
    .update(pipelineNodes)
    .set(patch)
    .where(eq(pipelineNodes.id, id))
    .returning();
  return row;
}

/** The row locked for the rest of the transaction; undefined when absent. */
export async function lockPipelineNode(
  db: DbExecutor,
  id: string,
): Promise<PipelineNodeRow | undefined> {
  const [row] = await db.select().from(pipelineNodes).where(eq(pipelineNodes.id, id)).for("update");
  return row;
}

export async function deletePipelineNode(db: DbExecutor, id: string): Promise<boolean> {
  const rows = await db
    .delete(pipelineNodes)
    .where(eq(pipelineNodes.id, id))
    .returning({ id: pipelineNodes.id });
  return rows.length > 0;
}
