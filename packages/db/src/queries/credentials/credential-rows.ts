import type { Database } from "../../client.js";
import { and, eq, inArray, sql } from "../../drizzle.js";
import { type CredentialRow, credentials, pipelineNodes } from "../../schema/index.js";
import { listOwnedPage, type RecordListScope } from "../owned-page.js";
import type { DbExecutor } from "../pipeline-nodes/node-rows.js";

export type { CredentialRow };
export type NewCredentialRow = typeof credentials.$inferInsert;

export async function insertCredential(
  db: Database,
  row: NewCredentialRow,
): Promise<CredentialRow> {
  const [inserted] = await db.insert(credentials).values(row).returning();
  if (!inserted) throw new Error("credential insert returned no row");
  return inserted;
}

export async function findCredentialById(
  db: Database | DbExecutor,
  id: string,
): Promise<CredentialRow | undefined> {
  const [row] = await db.select().from(credentials).where(eq(credentials.id, id)).limit(1);
  return row;
}

export async function findCredentialsByIds(
  db: Database | DbExecutor,
  ids: readonly string[],
): Promise<CredentialRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(credentials)
    .where(inArray(credentials.id, [...ids]));
}

export function listCredentialsPage(
  db: Database,
  options: { scope: RecordListScope; offset: number; limit: number },
): Promise<{ rows: CredentialRow[]; total: number }> {
  return listOwnedPage(db, credentials, options);
}

export async function updateCredential(
  db: Database,
  id: string,
  patch: { name?: string; data?: string; updatedAt: Date },
): Promise<CredentialRow | undefined> {
  const [row] = await db.update(credentials).set(patch).where(eq(credentials.id, id)).returning();
  return row;
}

/**
 * Replaces the sealed data only if it is still `previous` (an OAuth refresh racing another
 * refresh or an edit loses, and keeps what the other wrote). True when written.
 */
export async function replaceCredentialData(
  db: Database,
  input: { id: string; previous: string; data: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(credentials)
    .set({ data: input.data, updatedAt: input.now })
    .where(and(eq(credentials.id, input.id), eq(credentials.data, input.previous)))
    .returning({ id: credentials.id });
  return rows.length > 0;
}

/** Nodes naming the credential in their config (`credentialId`), by id and family. */
export async function findNodesUsingCredential(
  db: Database | DbExecutor,
  credentialId: string,
): Promise<Array<{ id: string; family: string }>> {
  return db
    .select({ id: pipelineNodes.id, family: pipelineNodes.family })
    .from(pipelineNodes)
    .where(sql`${pipelineNodes.config} ->> 'credentialId' = ${credentialId}`)
    .limit(10);
}

export async function deleteCredential(db: Database | DbExecutor, id: string): Promise<boolean> {
  const rows = await db
    .delete(credentials)
    .where(eq(credentials.id, id))
    .returning({ id: credentials.id });
  return rows.length > 0;
}
