import type { Database } from "../../client.js";
import { and, eq, sql } from "../../drizzle.js";
import { users } from "../../schema/index.js";

export type UserRow = typeof users.$inferSelect;

/** Inserts a user; `undefined` when the email (case-insensitive) is already taken. */
export async function insertUser(
  db: Database,
  values: { id: string; email: string; name: string; passwordHash: string; now: Date },
): Promise<UserRow | undefined> {
  const [row] = await db
    .insert(users)
    .values({
      id: values.id,
      email: values.email,
      name: values.name,
      passwordHash: values.passwordHash,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** Case-insensitive, served by the unique index on `lower(email)`. */
export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/**
 * Replaces a password hash, only if it is still `previousHash` (a concurrent change wins).
 * Returns whether the row changed.
 */
export async function replacePasswordHash(
  db: Database,
  values: { userId: string; previousHash: string; passwordHash: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ passwordHash: values.passwordHash, updatedAt: values.now })
    .where(and(eq(users.id, values.userId), eq(users.passwordHash, values.previousHash)))
    .returning({ id: users.id });
  return rows.length > 0;
}
