import { insertOrganizationWithOwner } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import type { IdentityContext } from "./context.js";
import { type PublicOrganization, presentOrganization } from "./present.js";

/** The creator becomes the organization's first owner. */
export async function createOrganization(
  ctx: IdentityContext,
  input: { userId: string; name: string },
): Promise<PublicOrganization> {
  const row = await insertOrganizationWithOwner(ctx.db, {
    id: newId("organization"),
    name: input.name,
    ownerId: input.userId,
    now: ctx.now(),
  });
  return presentOrganization(row, row.role);
}
