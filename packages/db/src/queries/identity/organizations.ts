import type { Database } from "../../client.js";
import { and, asc, count, eq } from "../../drizzle.js";
import { memberships, organizations, users } from "../../schema/index.js";

export type OrganizationRow = typeof organizations.$inferSelect;
export type MembershipRole = "owner" | "admin" | "member";

export interface OrganizationWithRole extends OrganizationRow {
  role: MembershipRole;
}

/** The organization and its creator's `owner` membership, in one transaction. */
export async function insertOrganizationWithOwner(
  db: Database,
  values: { id: string; name: string; ownerId: string; now: Date },
): Promise<OrganizationWithRole> {
  return db.transaction(async (tx) => {
    const [org] = await tx
      .insert(organizations)
      .values({
        id: values.id,
        name: values.name,
        createdBy: values.ownerId,
        createdAt: values.now,
        updatedAt: values.now,
      })
      .returning();
    if (!org) throw new Error("organization insert returned no row");
    await tx.insert(memberships).values({
      organizationId: org.id,
      userId: values.ownerId,
      role: "owner",
      createdAt: values.now,
    });
    return { ...org, role: "owner" as const };
  });
}

export async function findOrganizationById(
  db: Database,
  id: string,
): Promise<OrganizationRow | undefined> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
  return row;
}

export async function listOrganizationsOfUser(
  db: Database,
  userId: string,
): Promise<OrganizationWithRole[]> {
  const rows = await db
    .select({ organization: organizations, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
  return rows.map((r) => ({ ...r.organization, role: r.role as MembershipRole }));
}

export async function findMembershipRole(
  db: Database,
  organizationId: string,
  userId: string,
): Promise<MembershipRole | undefined> {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
    .limit(1);
  return row?.role as MembershipRole | undefined;
}

export interface MemberRow {
  organizationId: string;
  userId: string;
  email: string;
  name: string;
  role: MembershipRole;
  createdAt: Date;
}

/** `undefined` when the user already is a member. */
export async function insertMembership(
  db: Database,
  values: { organizationId: string; userId: string; role: MembershipRole; now: Date },
): Promise<{ createdAt: Date } | undefined> {
  const [row] = await db
    .insert(memberships)
    .values({
      organizationId: values.organizationId,
      userId: values.userId,
      role: values.role,
      createdAt: values.now,
    })
    .onConflictDoNothing()
    .returning({ createdAt: memberships.createdAt });
  return row;
}

export async function listMembersOfOrganization(
  db: Database,
  organizationId: string,
): Promise<MemberRow[]> {
  const rows = await db
    .select({
      organizationId: memberships.organizationId,
      userId: memberships.userId,
      email: users.email,
      name: users.name,
      role: memberships.role,
      createdAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(memberships.createdAt));
  return rows.map((r) => ({ ...r, role: r.role as MembershipRole }));
}

export type RemoveMembershipResult =
  | { ok: true }
  | { ok: false; reason: "not_member" | "last_owner" };

/**
 * Removes a membership unless it is the organization's last owner. The organization row is
 * locked first, so two concurrent removals cannot each leave the other owner as "the last one".
 */
export async function removeMembership(
  db: Database,
  organizationId: string,
  userId: string,
): Promise<RemoveMembershipResult> {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for("update");
    const [member] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
    if (!member) return { ok: false, reason: "not_member" } as const;
    if (member.role === "owner") {
      const [owners] = await tx
        .select({ n: count() })
        .from(memberships)
        .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner")));
      if ((owners?.n ?? 0) <= 1) return { ok: false, reason: "last_owner" } as const;
    }
    await tx
      .delete(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
    return { ok: true } as const;
  });
}
