import type { Database } from "../../client.js";
import { eq, inArray } from "../../drizzle.js";
import { canvasSnapshots, webhooks } from "../../schema/index.js";
import { listOwnedPage, type RecordListScope } from "../owned-page.js";
import type { DbExecutor } from "../pipeline-nodes/node-rows.js";
import type {
  CanvasSnapshotPatch,
  CanvasSnapshotRow,
  GraphWebhookRow,
  NewCanvasSnapshotRow,
} from "./canvas-rows.js";

export async function findCanvasSnapshotById(
  db: DbExecutor,
  id: string,
): Promise<CanvasSnapshotRow | undefined> {
  const [row] = await db.select().from(canvasSnapshots).where(eq(canvasSnapshots.id, id)).limit(1);
  return row;
}

/** One page of the scope's snapshots, newest first, and the scope's total. */
export function listCanvasSnapshotsPage(
  db: Database,
  options: { scope: RecordListScope; offset: number; limit: number },
): Promise<{ rows: CanvasSnapshotRow[]; total: number }> {
  return listOwnedPage(db, canvasSnapshots, options);
}

export async function insertCanvasSnapshot(
  db: DbExecutor,
  values: NewCanvasSnapshotRow,
): Promise<CanvasSnapshotRow> {
  const [row] = await db.insert(canvasSnapshots).values(values).returning();
  if (!row) throw new Error("insert into canvas_snapshots returned no row");
  return row;
}

/** Undefined when the snapshot is gone. */
export async function updateCanvasSnapshot(
  db: DbExecutor,
  id: string,
  patch: CanvasSnapshotPatch,
): Promise<CanvasSnapshotRow | undefined> {
  const [row] = await db
    .update(canvasSnapshots)
    .set(patch)
    .where(eq(canvasSnapshots.id, id))
    .returning();
  return row;
}

export async function deleteCanvasSnapshot(db: DbExecutor, id: string): Promise<boolean> {
  const rows = await db
    .delete(canvasSnapshots)
    .where(eq(canvasSnapshots.id, id))
    .returning({ id: canvasSnapshots.id });
  return rows.length > 0;
}

/** The webhooks with these ids, with the fields a frozen graph keeps (missing ids are absent). */
export async function findGraphWebhooks(
  db: DbExecutor,
  ids: readonly string[],
): Promise<GraphWebhookRow[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: webhooks.id,
      ownerId: webhooks.ownerId,
      organizationId: webhooks.organizationId,
      name: webhooks.name,
      targetUrl: webhooks.targetUrl,
      isActive: webhooks.isActive,
      payloadFilters: webhooks.payloadFilters,
    })
    .from(webhooks)
    .where(inArray(webhooks.id, [...new Set(ids)]));
}
