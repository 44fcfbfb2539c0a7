import { randomBytes } from "node:crypto";
import { apiKeys, type Database, memberships, organizations, sessions, users } from "@hookflow/db";
import { hashToken, newId } from "@hookflow/domain";

/**
 * Rows written straight to the database, so route suites do not depend on each other's routes.
 * Passwords here are not usable for login (the identity suite tests real signup and login).
 */
export async function createUserWithSession(
  db: Database,
  options: { email?: string; expiresAt?: Date } = {},
): Promise<{ userId: string; token: string; email: string }> {
  const userId = newId("user");
  const email = options.email ?? `${userId.toLowerCase()}@example.test`;
  await db.insert(users).values({ id: userId, email, name: "Test User", passwordHash: "unusable" });
  const token = `hfs_${randomBytes(24).toString("base64url")}`;
  await db.insert(sessions).values({
    id: newId("session"),
    userId,
    tokenHash: hashToken(token),
    expiresAt: options.expiresAt ?? new Date(Date.now() + 3600_000),
  });
  return { userId, token, email };
}

export async function createApiKeyFor(
  db: Database,
  userId: string,
  options: {
    scopes: string[];
    organizationId?: string;
    allowedOrigins?: string[];
    expiresAt?: Date;
  },
): Promise<{ id: string; key: string }> {
  const key = `hf_live_${randomBytes(30).toString("base64url").slice(0, 40)}`;
  const id = newId("apiKey");
  await db.insert(apiKeys).values({
    id,
    name: "fixture key",
    ownerId: userId,
    organizationId: options.organizationId ?? null,
    prefix: key.slice(0, 12),
    keyHash: hashToken(key),
    scopes: options.scopes,
    allowedOrigins: options.allowedOrigins ?? [],
    expiresAt: options.expiresAt ?? null,
  });
  return { id, key };
}

export async function createOrganizationWith(
  db: Database,
  members: Array<{ userId: string; role: "owner" | "admin" | "member" }>,
): Promise<string> {
  const id = newId("organization");
  const creator = members[0];
  if (!creator) throw new Error("an organization needs a member");
  await db.insert(organizations).values({ id, name: "Fixture Org", createdBy: creator.userId });
  await db
    .insert(memberships)
    .values(members.map((m) => ({ organizationId: id, userId: m.userId, role: m.role })));
  return id;
}
