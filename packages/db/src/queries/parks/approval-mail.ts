import type { Database } from "../../client.js";
import { sql } from "../../drizzle.js";

/**
 * The request mail of an approval park is owed until `notified_at` is set. Whoever sends it (the
 * worker right after parking, or the sweeper for a mail the worker never sent) first claims the
 * park: a conditional UPDATE that sets `notify_lease_until` only when the mail is still owed and
 * nobody holds an unexpired claim. So two senders never mail the same park while a claim lasts,
 * and a sender that dies or fails after claiming leaves a claim that runs out: the sweeper sends
 * again then (at least once; twice only if a send outlives its claim).
 */

/** Owed: a waiting approval park of its event's current run, without mail and without a live claim. */
const OWED = sql`p.kind = 'approval' and p.status = 'waiting' and p.notified_at is null
  and exists (select 1 from events e where e.id = p.event_id
    and p.run_id is not distinct from e.pipeline_run)`;

function claimable(now: Date) {
  return sql`(p.notify_lease_until is null or p.notify_lease_until <= ${now.toISOString()}::timestamptz)`;
}

function leaseEnd(input: { now: Date; leaseMs: number }): string {
  return new Date(input.now.getTime() + input.leaseMs).toISOString();
}

/** Claims one park's request mail for `leaseMs`; false when it is not owed or already claimed. */
export async function claimApprovalMail(
  db: Database,
  input: { parkId: string; now: Date; leaseMs: number },
): Promise<boolean> {
  const rows = (await db.execute(sql`
    update event_parks p set notify_lease_until = ${leaseEnd(input)}::timestamptz
    where p.id = ${input.parkId} and ${OWED} and ${claimable(input.now)}
    returning p.id`)) as unknown as Array<{ id: string }>;
  return rows.length === 1;
}

/** An approval park whose request mail the sweeper claimed (the worker never sent it). */
export interface ClaimedApprovalMail {
  parkId: string;
  eventId: string;
  webhookId: string;
  nodeId: string;
  /** The path's payload at the gate, as JSON text. */
  payload: string;
  /** The gate's timeout (the links stop working then). */
  timeoutAt: Date;
}

/**
 * Claims, oldest first, up to `limit` parks whose mail is owed and that parked before
 * `createdBefore` (a grace period, so the worker that parked them sends first). Rows another
 * sweeper is claiming are skipped, not waited for. Uses `event_parks_unnotified_idx`.
 */
export async function claimOwedApprovalMails(
  db: Database,
  input: { createdBefore: Date; now: Date; leaseMs: number; limit: number },
): Promise<ClaimedApprovalMail[]> {
  const rows = (await db.execute(sql`
    update event_parks set notify_lease_until = ${leaseEnd(input)}::timestamptz
    where id in (
      select p.id from event_parks p
      where ${OWED} and ${claimable(input.now)} and p.resume_at is not null
        and p.created_at < ${input.createdBefore.toISOString()}::timestamptz
      order by p.created_at, p.id
      limit ${input.limit}
      for update skip locked)
    returning id, event_id, webhook_id, node_id, payload, resume_at`)) as unknown as Array<{
    id: string;
    event_id: string;
    webhook_id: string;
    node_id: string;
    payload: string;
    resume_at: Date | string;
  }>;
  return rows.map((row) => ({
    parkId: row.id,
    eventId: row.event_id,
    webhookId: row.webhook_id,
    nodeId: row.node_id,
    payload: row.payload,
    timeoutAt: new Date(row.resume_at),
  }));
}

/**
 * Records that the park's request mail went out (or nobody was to be mailed): it is owed no more.
 * The claim is released with it.
 */
export async function markApprovalMailed(
  db: Database,
  input: { parkId: string; now: Date },
): Promise<void> {
  await db.execute(sql`
    update event_parks set notified_at = ${input.now.toISOString()}::timestamptz,
      notify_lease_until = null
    where id = ${input.parkId} and notified_at is null`);
}
