import { findUserByEmail, insertMembership } from "@hookflow/db";
import { ConflictError, ForbiddenError, NotFoundError } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import type { IdentityContext } from "./context.js";
import { requireOrganizationRole } from "./organization-access.js";
import { requireSession } from "./require-session.js";
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
  actor: Actor,
  input: { organizationId: string; email: string; role: Role },
): Promise<OrganizationMember> {
  requireSession(actor, "Managing organizations");
  const { role: actorRole } = await requireOrganizationRole(
    ctx,
    input.organizationId,
    actor.userId,
    ["owner", "admin"],
  );
  if (input.role === "owner" && actorRole !== "owner") {
    throw new ForbiddenError("Only an owner can add another owner");
  }
  const user = await findUserByEmail(ctx.db.db, input.email);
  if (!user) throw new NotFoundError("email: No user with this email");
  const added = await insertMembership(ctx.db.db, {
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
