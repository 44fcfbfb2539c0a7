import { findMembershipRole, removeMembership } from "@hookflow/db";
import { ConflictError, ForbiddenError, NotFoundError } from "@hookflow/domain";
import type { IdentityContext } from "./context.js";
import { requireOrganizationRole } from "./organization-access.js";

/**
 * Owners and admins remove members; only an owner removes an owner, and the last owner stays
 * (409), so an organization is never left without one.
 */
export async function removeOrganizationMember(
  ctx: IdentityContext,
  input: { actorUserId: string; organizationId: string; userId: string },
): Promise<void> {
  const { role: actorRole } = await requireOrganizationRole(
    ctx,
    input.organizationId,
    input.actorUserId,
    ["owner", "admin"],
  );
  const targetRole = await findMembershipRole(ctx.db, input.organizationId, input.userId);
  if (!targetRole) throw new NotFoundError("Member not found");
  if (targetRole === "owner" && actorRole !== "owner") {
    throw new ForbiddenError("Only an owner can remove an owner");
  }
  const result = await removeMembership(ctx.db, input.organizationId, input.userId);
  if (result.ok) return;
  switch (result.reason) {
    case "not_member":
      throw new NotFoundError("Member not found");
    case "last_owner":
      throw new ConflictError("The last owner of an organization cannot be removed");
  }
}
