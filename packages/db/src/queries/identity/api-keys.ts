import type { Database } from "../../client.js";
import { and, desc, eq, isNull } from "../../drizzle.js";
import { apiKeys } from "../../schema/index.js";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertApiKey(
  db: Database,
  values: {
    id: string;
    name: string;
    ownerId: string;
    organizationId: string | null;
    prefix: string;
    keyHash: string;
    scopes: string[];
    allowedOrigins: string[];
    expiresAt: Date | null;
    now: Date;
  },
): Promise<ApiKeyRow> {
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: values.id,
      name: values.name,
      ownerId: values.ownerId,
      organizationId: values.organizationId,
      prefix: values.prefix,
      keyHash: values.keyHash,
      scopes: values.scopes,
      allowedOrigins: values.allowedOrigins,
      expiresAt: values.expiresAt,
      createdAt: values.now,
    })
    .returning();
  if (!row) throw new Error("api key insert returned no row");
  return row;
}

/** The owner's keys that are not revoked, newest first. */
export async function listApiKeysOfOwner(db: Database, ownerId: string): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.ownerId, ownerId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function findApiKeyById(db: Database, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  return row;
}

/** Sets `revoked_at` once; returns whether this call revoked the key. */
export async function revokeApiKey(db: Database, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}
