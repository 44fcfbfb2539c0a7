import type { Database } from "../client.js";
import type { PgColumn, PgTable } from "../drizzle.js";
import { and, count, desc, eq, isNull, type SQL } from "../drizzle.js";

/** Whose records a list shows: an organization's, or a user's personal ones (no organization). */
export type RecordListScope = { organizationId: string } | { personalOf: string };

/** A table of owned records: webhooks, processing nodes, canvas snapshots. */
type OwnedTable = PgTable & {
  id: PgColumn;
  ownerId: PgColumn;
  organizationId: PgColumn;
  createdAt: PgColumn;
};

function scopeFilter(table: OwnedTable, scope: RecordListScope): SQL | undefined {
  return "organizationId" in scope
    ? eq(table.organizationId, scope.organizationId)
    : and(eq(table.ownerId, scope.personalOf), isNull(table.organizationId));
}

export interface OwnedPageOptions {
  scope: RecordListScope;
  /** Narrows the scope further (a node family). */
  where?: SQL;
  offset: number;
  limit: number;
}

/** One page of the scope's records, newest first, and the scope's total. */
export async function listOwnedPage<T extends OwnedTable>(
  db: Database,
  table: T,
  options: OwnedPageOptions,
): Promise<{ rows: T["$inferSelect"][]; total: number }> {
  const where = and(options.where, scopeFilter(table, options.scope));
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(desc(table.createdAt), desc(table.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ total: count() })
      .from(table as PgTable)
      .where(where),
  ]);
  return { rows: rows as T["$inferSelect"][], total: totals[0]?.total ?? 0 };
}
