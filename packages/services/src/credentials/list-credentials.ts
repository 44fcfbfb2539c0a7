import { listCredentialsPage } from "@hookflow/db";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { actingScope } from "../list-scope.js";
import { type CredentialView, toCredentialView } from "./credential-view.js";

/** The acting context's credentials, newest first, without their data. */
export async function listCredentials(
  ctx: Pick<ServiceContext, "db" | "keyRing">,
  actor: Actor,
  input: { page: number; limit: number },
): Promise<{ items: CredentialView[]; total: number }> {
  const { page, limit } = input;
  const { rows, total } = await listCredentialsPage(ctx.db.db, {
    scope: actingScope(actor),
    offset: (page - 1) * limit,
    limit,
  });
  return { items: rows.map((row) => toCredentialView(ctx.keyRing, row)), total };
}
