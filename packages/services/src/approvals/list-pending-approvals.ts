import { listPendingApprovals as listPendingApprovalRows } from "@hookflow/db";
import type { ServiceContext } from "../context.js";
import { PREVIEW_CHARS } from "./resume-decided.js";

/** Events waiting at an approval node (already loaded as visible), oldest first. */
export async function listPendingApprovals(
  ctx: Pick<ServiceContext, "db">,
  input: { nodeId: string; page: number; limit: number },
) {
  return listPendingApprovalRows(ctx.db.db, input.nodeId, {
    page: input.page,
    limit: input.limit,
    previewChars: PREVIEW_CHARS,
  });
}
