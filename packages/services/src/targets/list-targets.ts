import { listAdditionalTargetsPage } from "@hookflow/db";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { actingScope, type PageInput } from "../list-scope.js";
import type { AdditionalTarget } from "./target-records.js";

/** One page of the acting context's targets, newest first, and their total. */
export async function listTargets(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  { page, limit }: PageInput,
): Promise<{ targets: AdditionalTarget[]; total: number }> {
  requireScope(actor, "webhooks:read");
  const { rows, total } = await listAdditionalTargetsPage(ctx.db.db, {
    scope: actingScope(actor),
    offset: (page - 1) * limit,
    limit,
  });
  return { targets: rows, total };
}
