import { findUserByEmail, insertMembership } from "@hookflow/db";
import { ConflictError, ForbiddenError, NotFoundError } from "@hookflow/domain";
import type { IdentityContext } from "./context.js";
import { requireOrganizationRole } from "./organization-access.js";
import type { Role } from "./schemas.js";

export interface OrganizationMember {
  organizationId: string;
  userId: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
}

/**
 * Owners and admins add existing users by email. Only an owner may make someone an owner.
 */
export async function addOrganizationMember(
  ctx: IdentityContext,
  input: { actorUserId: string; organizationId: string; email: string; role: Role },
): Promise<OrganizationMember> {
  const { role: actorRole } = await requireOrganizationRole(
    ctx,
    input.organizationId,
    input.actorUserId,
    ["owner", "admin"],
  );
  if (input.role === "owner" && actorRole !== "owner") {
    throw new ForbiddenError("Only an owner can add another owner");
  }
  const user = await findUserByEmail(ctx.db, input.email);
  if (!user) throw new NotFoundError("email: No user with this email");
  const added = await insertMembership(ctx.db, {
    organizationId: input.organizationId,
    userId: user.id,
    role: input.role,
    now: ctx.now(),
  });
  if (!added) throw new ConflictError("This user already is a member of the organization");
  return {
    organizationId: input.organizationId,
    userId: user.id,
    email: user.email,
    name: user.name,
    role: input.role,
    createdAt: added.createdAt.toISOString(),
  };
}
