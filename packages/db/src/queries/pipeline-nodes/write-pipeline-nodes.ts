import { eq, sql } from "drizzle-orm";
import type { Database } from "../../client.js";
import { pipelineNodes } from "../../schema/index.js";
import type {
  DbExecutor,
  NewPipelineNodeRow,
  PipelineNodePatch,
  PipelineNodeRow,
} from "./node-rows.js";

/** One advisory lock for every graph write: two writes can never close a cycle together. */
const GRAPH_WRITE_LOCK = 0x686b666c; // "hkfl"

/**
 * Runs `write` in a transaction holding the graph write lock, so the references and the cycle
 * check it reads stay true until it commits. Graph writes are rare; serialising them is cheap.
 */
export async function withGraphWriteLock<T>(
  db: Database,
  write: (tx: DbExecutor) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${GRAPH_WRITE_LOCK})`);
    return write(tx);
  });
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
