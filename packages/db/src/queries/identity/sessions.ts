import type { Database } from "../../client.js";
import { eq } from "../../drizzle.js";
import { sessions } from "../../schema/index.js";

export async function insertSession(
  db: Database,
  values: { id: string; userId: string; tokenHash: string; expiresAt: Date; now: Date },
): Promise<void> {
  await db.insert(sessions).values({
    id: values.id,
    userId: values.userId,
    tokenHash: values.tokenHash,
    expiresAt: values.expiresAt,
    createdAt: values.now,
  });
}

/** Returns whether a session was deleted. */
export async function deleteSessionByTokenHash(db: Database, tokenHash: string): Promise<boolean> {
  const rows = await db
    .delete(sessions)
    .where(eq(sessions.tokenHash, tokenHash))
    .returning({ id: sessions.id });
  return rows.length > 0;
}
