import { findMembershipRole, removeMembership } from "@hookflow/db";
import { ConflictError, ForbiddenError, NotFoundError } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import type { IdentityContext } from "./context.js";
import { requireOrganizationRole } from "./organization-access.js";
import { requireSession } from "./require-session.js";

/**
 * Owners and admins remove members; only an owner removes an owner, and the last owner stays
 * (409), so an organization is never left without one.
 */
export async function removeOrganizationMember(
  ctx: IdentityContext,
  actor: Actor,
  input: { organizationId: string; userId: string },
): Promise<void> {
  requireSession(actor, "Managing organizations");
  const { role: actorRole } = await requireOrganizationRole(
    ctx,
    input.organizationId,
    actor.userId,
    ["owner", "admin"],
  );
  const targetRole = await findMembershipRole(ctx.db.db, input.organizationId, input.userId);
  if (!targetRole) throw new NotFoundError("Member not found");
  if (targetRole === "owner" && actorRole !== "owner") {
    throw new ForbiddenError("Only an owner can remove an owner");
  }
  const result = await removeMembership(ctx.db.db, input.organizationId, input.userId);
  if (result.ok) return;
  switch (result.reason) {
    case "not_member":
      throw new NotFoundError("Member not found");
    case "last_owner":
      throw new ConflictError("The last owner of an organization cannot be removed");
  }
}
