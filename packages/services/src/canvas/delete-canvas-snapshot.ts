import { deleteCanvasSnapshot as deleteSnapshotRow } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleSnapshot } from "./load-snapshot.js";

/** Deletes the layout and its frozen graph; live nodes are untouched. */
export async function deleteCanvasSnapshot(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { id: string },
): Promise<void> {
  await loadVisibleSnapshot(ctx, actor, input.id);
  if (!(await deleteSnapshotRow(ctx.db.db, input.id))) {
    throw new NotFoundError("Canvas snapshot not found");
  }
}
