import type { Database } from "../client.js";
import { and, eq, gt, isNull, or, sql } from "../drizzle.js";
import { apiKeys, memberships, sessions } from "../schema/index.js";

export interface SessionLookup {
  sessionId: string;
  userId: string;
  expiresAt: Date;
}

export async function findLiveSession(
  db: Database,
  tokenHash: string,
  now: Date,
): Promise<SessionLookup | undefined> {
  const [row] = await db
    .select({ sessionId: sessions.id, userId: sessions.userId, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
    .limit(1);
  return row;
}

export interface ApiKeyLookup {
  id: string;
  ownerId: string;
  organizationId: string | null;
  scopes: string[];
  allowedOrigins: string[];
  expiresAt: Date | null;
}

/** A key that exists and is not revoked; expiry is the caller's check (to say why). */
export async function findActiveApiKey(
  db: Database,
  keyHash: string,
): Promise<ApiKeyLookup | undefined> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      ownerId: apiKeys.ownerId,
      organizationId: apiKeys.organizationId,
      scopes: apiKeys.scopes,
      allowedOrigins: apiKeys.allowedOrigins,
      expiresAt: apiKeys.expiresAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row;
}

/**
 * Whether some live key (not revoked, not expired) names `origin` in its `allowedOrigins`: the
 * CORS preflight rule, since a preflight carries no credential.
 */
export async function liveApiKeyListsOrigin(
  db: Database,
  origin: string,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(
      and(
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
        sql`${origin} = any(${apiKeys.allowedOrigins})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function touchApiKey(db: Database, id: string, now: Date): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
}

export async function listMembershipsOfUser(
  db: Database,
  userId: string,
): Promise<Array<{ organizationId: string; role: string }>> {
  return db
    .select({ organizationId: memberships.organizationId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.userId, userId));
}
