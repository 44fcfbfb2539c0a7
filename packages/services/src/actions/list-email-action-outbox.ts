import { listMailOfSource, type MailRow } from "@hookflow/db";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import type { PageInput } from "../list-scope.js";
import { loadVisibleNode } from "../nodes/node-records.js";

export interface ListEmailActionOutboxInput extends PageInput {
  /** The email action: 404 when there is none, 403 when it is another owner's. */
  id: string;
}

/** One page of the mails a visible email action produced (every status), newest first. */
export async function listEmailActionOutbox(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  { id, page, limit }: ListEmailActionOutboxInput,
): Promise<{ mails: MailRow[]; total: number }> {
  requireScope(actor, "canvas:read");
  const node = await loadVisibleNode(ctx, actor, "emailAction", id);
  const { items, total } = await listMailOfSource(
    ctx.db.db,
    { sourceType: "emailAction", sourceId: node.id },
    { page, limit },
  );
  return { mails: items, total };
}
