import { insertOrganizationWithOwner } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import type { IdentityContext } from "./context.js";
import { type PublicOrganization, presentOrganization } from "./present.js";
import { requireSession } from "./require-session.js";

/** The creator becomes the organization's first owner. */
export async function createOrganization(
  ctx: IdentityContext,
  actor: Actor,
  input: { name: string },
): Promise<PublicOrganization> {
  requireSession(actor, "Managing organizations");
  const row = await insertOrganizationWithOwner(ctx.db.db, {
    id: newId("organization"),
    name: input.name,
    ownerId: actor.userId,
    now: ctx.now(),
  });
  return presentOrganization(row, row.role);
}
