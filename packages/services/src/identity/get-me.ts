import { findUserById, listOrganizationsOfUser, type MembershipRole } from "@hookflow/db";
import { UnauthorizedError } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import type { IdentityContext } from "./context.js";
import { type PublicUser, presentUser } from "./present.js";

export interface Me {
  user: PublicUser;
  memberships: Array<{ organizationId: string; name: string; role: MembershipRole }>;
}

/** The authenticated user and the organizations they belong to; 401 once the account is gone. */
export async function getMe(ctx: IdentityContext, actor: Actor): Promise<Me> {
  const [user, organizations] = await Promise.all([
    findUserById(ctx.db.db, actor.userId),
    listOrganizationsOfUser(ctx.db.db, actor.userId),
  ]);
  if (!user) throw new UnauthorizedError("Account no longer exists");
  return {
    user: presentUser(user),
    memberships: organizations.map((o) => ({ organizationId: o.id, name: o.name, role: o.role })),
  };
}
