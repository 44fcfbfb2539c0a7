import { listCanvasSnapshotsPage } from "@hookflow/db";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { actingScope } from "../list-scope.js";
import { type CanvasSnapshotView, visibleSnapshots } from "./redact-snapshot.js";

/** Snapshots of the acting context, newest first, each as the actor may see it. */
export async function listCanvasSnapshots(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { page: number; limit: number },
): Promise<{ items: CanvasSnapshotView[]; total: number }> {
  const { page, limit } = input;
  const { rows, total } = await listCanvasSnapshotsPage(ctx.db.db, {
    scope: actingScope(actor),
    offset: (page - 1) * limit,
    limit,
  });
  return { items: await visibleSnapshots(ctx, actor, rows), total };
}
