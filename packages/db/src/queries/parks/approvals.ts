import type { Database } from "../../client.js";
import { and, asc, count, eq, type SQL, sql } from "../../drizzle.js";
import { eventParks, events, pipelineNodes, webhooks } from "../../schema/index.js";

/**
 * Approval gates as people see them: the events waiting at a gate, and the one conditional UPDATE
 * that decides a waiting path, whoever decides it (the API, an emailed link, the timeout job all
 * race on `status = 'waiting'`, so each path is decided once).
 */

/** A park belongs to the event's current pipeline run (a replay starts a new one). */
const CURRENT_RUN = sql`exists (select 1 from ${events} where ${events.id} = ${eventParks.eventId}
  and ${eventParks.runId} is not distinct from ${events.pipelineRun})`;

const WAITING_APPROVAL = and(eq(eventParks.status, "waiting"), eq(eventParks.kind, "approval"));

export interface PendingApproval {
  parkId: string;
  eventId: string;
  webhookId: string;
  /** When the path reached the gate. */
  createdAt: Date;
  /** When `autoActionOnTimeout` applies. */
  timeoutAt: Date | null;
  /** The start of the path's payload as JSON text (at most `previewChars` characters). */
  payloadPreview: string;
  payloadTruncated: boolean;
}

export interface PendingApprovalsPage {
  items: PendingApproval[];
  total: number;
}

/** The paths waiting at an approval gate, oldest first (they time out first). */
export async function listPendingApprovals(
  db: Database,
  nodeId: string,
  paging: { page: number; limit: number; previewChars: number },
): Promise<PendingApprovalsPage> {
  const where = and(eq(eventParks.nodeId, nodeId), WAITING_APPROVAL, CURRENT_RUN);
  const [rows, totals] = await Promise.all([
    db
      .select({
        parkId: eventParks.id,
        eventId: eventParks.eventId,
        webhookId: eventParks.webhookId,
        createdAt: eventParks.createdAt,
        timeoutAt: eventParks.resumeAt,
        payloadPreview: sql<string>`left(${eventParks.payload}, ${paging.previewChars})`,
        payloadTruncated: sql<boolean>`char_length(${eventParks.payload}) > ${paging.previewChars}`,
      })
      .from(eventParks)
      .where(where)
      .orderBy(asc(eventParks.createdAt), asc(eventParks.id))
      .limit(paging.limit)
      .offset((paging.page - 1) * paging.limit),
    db.select({ total: count() }).from(eventParks).where(where),
  ]);
  return { items: rows, total: totals[0]?.total ?? 0 };
}

export type ApprovalTarget =
  /** Every waiting path of the event at the gate (the API names a node and an event). */
  | { nodeId: string; eventId: string }
  /** One path (an emailed link names its park). */
  | { parkId: string };

export interface DecidedApproval {
  parkId: string;
  eventId: string;
  webhookId: string;
  nodeId: string;
  status: "approved" | "rejected";
  decidedAt: Date;
  /** The event's priority: the lane its resume job goes to when it has none. */
  priority: number;
}

function targetCondition(target: ApprovalTarget): SQL | undefined {
  return "parkId" in target
    ? eq(eventParks.id, target.parkId)
    : and(eq(eventParks.nodeId, target.nodeId), eq(eventParks.eventId, target.eventId));
}

/**
 * Decides waiting approval paths with one conditional UPDATE: only rows still `waiting` change,
 * so a second decision, a second click on a link or a decision racing the timeout finds nothing
 * and gets an empty list.
 */
export async function decideApproval(
  db: Database,
  input: {
    target: ApprovalTarget;
    decision: "approved" | "rejected";
    decidedBy: string;
    now: Date;
  },
): Promise<DecidedApproval[]> {
  const rows = await db
    .update(eventParks)
    .set({
      status: input.decision,
      decidedAt: input.now,
      decidedBy: input.decidedBy,
      updatedAt: input.now,
    })
    .where(and(targetCondition(input.target), WAITING_APPROVAL, CURRENT_RUN))
    .returning({
      parkId: eventParks.id,
      eventId: eventParks.eventId,
      webhookId: eventParks.webhookId,
      nodeId: eventParks.nodeId,
      decidedAt: eventParks.decidedAt,
      priority: sql<number>`(select ${events.priority} from ${events}
        where ${events.id} = ${eventParks.eventId})`,
    });
  return rows.map((row) => ({
    ...row,
    status: input.decision,
    decidedAt: row.decidedAt ?? input.now,
    priority: Number(row.priority),
  }));
}

export interface ApprovalParkView {
  parkId: string;
  eventId: string;
  webhookId: string;
  webhookName: string;
  nodeId: string;
  /** Null when the gate was deleted after the path parked. */
  nodeName: string | null;
  status: string;
  decidedAt: Date | null;
  /** A user id, `email-link` or `timeout`. */
  decidedBy: string | null;
  timeoutAt: Date | null;
  payloadPreview: string;
  payloadTruncated: boolean;
}

/** One approval park with the names a confirmation page shows; undefined if none. */
export async function findApprovalPark(
  db: Database,
  parkId: string,
  previewChars: number,
): Promise<ApprovalParkView | undefined> {
  const [row] = await db
    .select({
      parkId: eventParks.id,
      eventId: eventParks.eventId,
      webhookId: eventParks.webhookId,
      webhookName: webhooks.name,
      nodeId: eventParks.nodeId,
      nodeName: pipelineNodes.name,
      status: eventParks.status,
      decidedAt: eventParks.decidedAt,
      decidedBy: eventParks.decidedBy,
      timeoutAt: eventParks.resumeAt,
      payloadPreview: sql<string>`left(${eventParks.payload}, ${previewChars})`,
      payloadTruncated: sql<boolean>`char_length(${eventParks.payload}) > ${previewChars}`,
    })
    .from(eventParks)
    .innerJoin(webhooks, eq(webhooks.id, eventParks.webhookId))
    .leftJoin(pipelineNodes, eq(pipelineNodes.id, eventParks.nodeId))
    .where(and(eq(eventParks.id, parkId), eq(eventParks.kind, "approval")))
    .limit(1);
  return row;
}
