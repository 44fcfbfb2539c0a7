import { type CanvasSnapshotRow, findCanvasSnapshotById } from "@hookflow/db";
import { assertVisible } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { type CanvasSnapshotView, visibleSnapshots } from "./redact-snapshot.js";

/** The snapshot if the actor may see it: 404 when absent, 403 when it is someone else's. */
export async function loadVisibleSnapshot(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  id: string,
): Promise<CanvasSnapshotRow> {
  return assertVisible(actor, await findCanvasSnapshotById(ctx.db.db, id), "Canvas snapshot");
}

/** One snapshot as `actor` may see it (see `visibleSnapshots`). */
export async function snapshotViewFor(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  row: CanvasSnapshotRow,
): Promise<CanvasSnapshotView> {
  const [visible] = await visibleSnapshots(ctx, actor, [row]);
  return visible as CanvasSnapshotView;
}
