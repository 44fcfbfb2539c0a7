import { listPendingApprovals as listPendingApprovalRows } from "@hookflow/db";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleNode } from "../nodes/node-records.js";
import { PREVIEW_CHARS } from "./resume-decided.js";

/** Events waiting at an approval node the actor can see (404/403 otherwise), oldest first. */
export async function listPendingApprovals(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { nodeId: string; page: number; limit: number },
) {
  const node = await loadVisibleNode(ctx, actor, "approval", input.nodeId);
  return listPendingApprovalRows(ctx.db.db, node.id, {
    page: input.page,
    limit: input.limit,
    previewChars: PREVIEW_CHARS,
  });
}
