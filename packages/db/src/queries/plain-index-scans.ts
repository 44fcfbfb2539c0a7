import type { Database } from "../client.js";
import { sql } from "../drizzle.js";
import type { DbExecutor } from "./pipeline-nodes/node-rows.js";

/**
 * Runs `query` in a short transaction in which Postgres may plan neither bitmap nor sequential
 * scans, so a sweep over a queue table's partial index of open rows is an ordered index scan that
 * stops at its limit. Such an index keeps an entry for every row version that was ever open until
 * vacuum removes it; a plain index scan marks the entries of dead versions as it meets them, so
 * the next sweep steps over them, where a bitmap scan (the planner's choice when its statistics
 * say a few hundred rows are open) reads the table page of every entry again on every sweep
 * (docs/decisions.md, "Events as a queue table"). The settings end with the transaction.
 */
export function withPlainIndexScans<T>(
  db: Database,
  query: (tx: DbExecutor) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`,
    );
    return query(tx);
  });
}
