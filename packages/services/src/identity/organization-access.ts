import { findMembershipRole, findOrganizationById, type OrganizationRow } from "@hookflow/db";
import { ForbiddenError, NotFoundError } from "@hookflow/domain";
import type { IdentityContext } from "./context.js";
import type { Role } from "./schemas.js";

/** 404 for an unknown organization, 403 when the user is not a member or lacks the role. */
export async function requireOrganizationRole(
  ctx: IdentityContext,
  organizationId: string,
  userId: string,
  allowed: readonly Role[],
): Promise<{ organization: OrganizationRow; role: Role }> {
  const organization = await findOrganizationById(ctx.db.db, organizationId);
  if (!organization) throw new NotFoundError("Organization not found");
  const role = await findMembershipRole(ctx.db.db, organizationId, userId);
  if (!role) throw new ForbiddenError("Not a member of this organization");
  if (!allowed.includes(role)) {
    throw new ForbiddenError(`This needs the ${allowed.join(" or ")} role in the organization`);
  }
  return { organization, role };
}
