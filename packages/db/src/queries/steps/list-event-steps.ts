import type { Database } from "../../client.js";
import { asc, eq } from "../../drizzle.js";
import { eventStepBatches } from "../../schema/index.js";
/** A recorded step of an event, read back from its stored element. */
export interface EventStepRecord {
  eventId: string;
  nodeType: string;
  nodeId: string;
  nodeName: string | null;
  status: string;
  statusCode: number | null;
  durationMs: number | null;
  lastPayload: unknown;
  error: string | null;
  at: Date;
  /** Node-specific record (an AI node's token usage and tool calls), when the step has one. */
  detail?: Record<string, unknown>;
}

/**
 * Every recorded step of an event, in the order they happened (batches in the order they were
 * written, each in its own order). An element that does not parse is skipped, not fatal.
 */
export async function listEventSteps(db: Database, eventId: string): Promise<EventStepRecord[]> {
  const batches = await db
    .select({ steps: eventStepBatches.steps })
    .from(eventStepBatches)
    .where(eq(eventStepBatches.eventId, eventId))
    .orderBy(asc(eventStepBatches.id));
  return batches.flatMap(({ steps }) =>
    Array.isArray(steps) ? steps.flatMap((raw: unknown) => toRecord(eventId, raw) ?? []) : [],
  );
}

type Fields = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const number = (value: unknown): number | null => (typeof value === "number" ? value : null);

/**
 * One element of a stored batch: `{eventId?, nodeType, nodeId, nodeName?, status, statusCode?,
 * durationMs?, error?, at, lastPayload?}` as the worker writes it (elements written by earlier
 * versions have no `eventId`). An element that does not have that shape is skipped, not fatal.
 */
function toRecord(eventId: string, raw: unknown): EventStepRecord | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const step = raw as Fields;
  const nodeType = text(step.nodeType);
  const nodeId = text(step.nodeId);
  const status = text(step.status);
  const at = text(step.at);
  if (nodeType === null || nodeId === null || status === null || at === null) return undefined;
  return {
    eventId,
    nodeType,
    nodeId,
    nodeName: text(step.nodeName),
    status,
    statusCode: number(step.statusCode),
    durationMs: number(step.durationMs),
    lastPayload: step.lastPayload === undefined ? null : step.lastPayload,
    ...(typeof step.detail === "object" && step.detail !== null && !Array.isArray(step.detail)
      ? { detail: step.detail as Record<string, unknown> }
      : {}),
    error: text(step.error),
    at: new Date(at),
  };
}
