import { inArray } from "drizzle-orm";
import type { Database } from "../../client.js";
import { events, webhooks } from "../../schema/index.js";

/** One accepted ingress request, ready to be stored as a pending event. */
export interface IngressEventRow {
  id: string;
  webhookId: string;
  eventType: string | null;
  /** The exact request body text. */
  body: string;
  headers: Record<string, string>;
  sourceIp: string | null;
  priority: number;
  dedupKey: string | null;
  /** Arrival time: keeps arrival order within a batch and sets the first attempt's due time. */
  receivedAt: Date;
}

export type IngressInsertOutcome = "stored" | "webhook_missing";

function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === "23503") return true;
  }
  return false;
}

async function insertRows(db: Database, rows: IngressEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(events).values(
    rows.map((row) => ({
      id: row.id,
      webhookId: row.webhookId,
      status: "pending",
      eventType: row.eventType,
      body: row.body,
      headers: row.headers,
      sourceIp: row.sourceIp,
      priority: row.priority,
      dedupKey: row.dedupKey,
      nextAttemptAt: row.receivedAt,
      createdAt: row.receivedAt,
      updatedAt: row.receivedAt,
    })),
  );
}

/**
 * Stores a whole group-commit batch with one multi-row INSERT. When a webhook of the batch was
 * deleted in the meantime (foreign key violation), the rows of the webhooks that still exist are
 * stored with a second INSERT and the others are reported as `webhook_missing`, so one deletion
 * does not fail the requests of every other webhook in the batch.
 */
export async function insertIngressEvents(
  db: Database,
  rows: IngressEventRow[],
): Promise<IngressInsertOutcome[]> {
  try {
    await insertRows(db, rows);
    return rows.map(() => "stored");
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
  }
  const ids = [...new Set(rows.map((row) => row.webhookId))];
  const found = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(inArray(webhooks.id, ids));
  const existing = new Set(found.map((row) => row.id));
  await insertRows(
    db,
    rows.filter((row) => existing.has(row.webhookId)),
  );
  return rows.map((row) => (existing.has(row.webhookId) ? "stored" : "webhook_missing"));
}

/** Best-effort undo of a batch whose enqueue failed (the sender was told 503). */
export async function deleteIngressEvents(db: Database, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(events).where(inArray(events.id, ids));
}
