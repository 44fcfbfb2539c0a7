import { listOrganizationsOfUser } from "@hookflow/db";
import type { Actor } from "../actor.js";
import type { IdentityContext } from "./context.js";
import { type PublicOrganization, presentOrganization } from "./present.js";
import { requireSession } from "./require-session.js";

/** The caller's organizations, with the caller's role in each. */
export async function listOrganizations(
  ctx: IdentityContext,
  actor: Actor,
): Promise<PublicOrganization[]> {
  requireSession(actor, "Managing organizations");
  const rows = await listOrganizationsOfUser(ctx.db.db, actor.userId);
  return rows.map((row) => presentOrganization(row, row.role));
}
