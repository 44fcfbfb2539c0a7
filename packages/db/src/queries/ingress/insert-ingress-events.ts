import type { Database, DbHandle } from "../../client.js";
import { inArray } from "../../drizzle.js";
import { events, webhooks } from "../../schema/index.js";

/** One accepted ingress request, ready to be stored as a pending event. */
export interface IngressEventRow {
  id: string;
  webhookId: string;
  eventType: string | null;
  /** The exact request body text: one JSON value, as the ingress checked it. */
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
      status: "pending" as const,
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
  return insertSkippingMissingWebhooks(db, rows, (some) => insertRows(db, some));
}

/**
 * `insertIngressEvents` for large batches on the hot path: the batch travels as one JSON
 * parameter read by `json_to_recordset`, so the statement text never varies (each connection
 * prepares it once, where a multi-row VALUES list is a new statement per batch size) and no
 * per-value query building happens in Node. Same outcomes, same arrival order.
 */
export async function insertIngressEventBatch(
  handle: DbHandle,
  rows: IngressEventRow[],
): Promise<IngressInsertOutcome[]> {
  return insertSkippingMissingWebhooks(handle.db, rows, (some) => insertRowsAsJson(handle, some));
}

async function insertSkippingMissingWebhooks(
  db: Database,
  rows: IngressEventRow[],
  insert: (rows: IngressEventRow[]) => Promise<void>,
): Promise<IngressInsertOutcome[]> {
  try {
    await insert(rows);
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
  await insert(rows.filter((row) => existing.has(row.webhookId)));
  return rows.map((row) => (existing.has(row.webhookId) ? "stored" : "webhook_missing"));
}

async function insertRowsAsJson(handle: DbHandle, rows: IngressEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  try {
    if (await insertBatchText(handle, batchText(rows, true), rows.length)) return;
  } catch (error) {
    if (!isJsonRefusal(error)) throw error;
  }
  // Postgres refused a body it was to read as JSON, or the batch's JSON did not hold exactly its
  // rows (docs/decisions.md, "Bodies travel as JSON"): the batch goes again with every body
  // quoted, as text Postgres only unescapes.
  if (!(await insertBatchText(handle, batchText(rows, false), rows.length))) {
    throw new Error("the quoted batch did not hold exactly its rows");
  }
}

/**
 * Inserts the rows of a batch's JSON only if it holds exactly `expected` of them (nothing
 * otherwise); says whether it did.
 */
async function insertBatchText(
  handle: DbHandle,
  batch: string,
  expected: number,
): Promise<boolean> {
  const result = await handle.sql`
    with r as materialized (
      select * from json_to_recordset(${batch}::json)
        as r(b json, x text, i text, w text, t text, h jsonb, s text, p int, d text, a timestamptz)
    )
    insert into events (id, webhook_id, status, event_type, body, headers, source_ip, priority,
      dedup_key, next_attempt_at, created_at, updated_at)
    select r.i, r.w, 'pending', r.t, coalesce(r.b::text, r.x), r.h, r.s, r.p, r.d, r.a, r.a, r.a
    from r where (select count(*) from r) = ${expected}::int
  `;
  return result.count === expected;
}

/**
 * The batch as one JSON array, one object per row. A body that is a JSON object or array with
 * nothing around it and no `\u` escape is written into the text as it is (`b`; Postgres copies
 * a `json` value's exact text); any other body goes as a JSON string (`x`). Quoting a body costs
 * an escape per quote in Node and an unescape in Postgres, and V8 kept much of what
 * JSON.stringify built for a whole batch alive into its old generation (docs/benchmarks.md,
 * "Bodies travel as JSON"). Bodies are checked JSON (the ingress parsed each one); should one
 * ever not be, it still cannot reach another row or webhook: the body comes first in its object
 * and Postgres keeps the last of duplicate keys, and a batch whose JSON holds more objects than
 * rows is not inserted (such a body may then be stored other than sent: it was never JSON).
 */
function batchText(rows: IngressEventRow[], embedBodies: boolean): string {
  let text = "[";
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as IngressEventRow;
    const fields = JSON.stringify({
      i: row.id,
      w: row.webhookId,
      t: row.eventType,
      h: row.headers,
      s: row.sourceIp,
      p: row.priority,
      d: row.dedupKey,
      a: row.receivedAt.toISOString(),
    });
    const body =
      embedBodies && embeddable(row.body) ? `"b":${row.body}` : `"x":${JSON.stringify(row.body)}`;
    text += `${index === 0 ? "{" : ",{"}${body},${fields.slice(1)}`;
  }
  return `${text}]`;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether Postgres gives a body back exactly when it reads it as a `json` value: an object or
 * array (a scalar string would come back re-escaped, `null` as SQL NULL), with no whitespace
 * around it (outside the value, it is not part of the value's text), and no `\u` escape
 * (Postgres refuses `\u0000` and unpaired surrogates, which JSON.parse accepts).
 */
function embeddable(body: string): boolean {
  const first = body.charCodeAt(0);
  const last = body.charCodeAt(body.length - 1);
  return (
    (first === OPEN_BRACE || first === OPEN_BRACKET) &&
    (last === CLOSE_BRACE || last === CLOSE_BRACKET) &&
    !body.includes("\\u")
  );
}

/**
 * Errors Postgres raises while reading a batch's JSON: invalid text representation, an
 * untranslatable character, or a nesting too deep for its parser's stack.
 */
const JSON_REFUSALS = new Set(["22P02", "22P05", "54001"]);

function isJsonRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && JSON_REFUSALS.has(code);
}

/** Best-effort undo of a test send whose enqueue failed (the caller was told 503). */
export async function deleteIngressEvents(db: Database, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(events).where(inArray(events.id, ids));
}
