import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleSnapshot, snapshotViewFor } from "./load-snapshot.js";
import type { CanvasSnapshotView } from "./redact-snapshot.js";

/** The layout and the frozen graph, as the actor may see them now. */
export async function getCanvasSnapshot(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { id: string },
): Promise<CanvasSnapshotView> {
  return snapshotViewFor(ctx, actor, await loadVisibleSnapshot(ctx, actor, input.id));
}
