import { z } from "@hono/zod-openapi";
import { jsonTextNestsDeeperThan, MAX_PAYLOAD_DEPTH } from "@hookflow/pipeline";
import {
  EVENT_STATUSES,
  type EventRow,
  type EventStatus,
  type EventSummaryRow,
  payloadOf,
  type StoredDeliveryAttempt,
} from "@hookflow/services";
import { ActionRun } from "./action-runs-body.js";

/** An event as lists show it (docs/decisions.md, "Delivery"): no payload, no headers. */
export const EventSummary = z
  .object({
    id: z.string(),
    _id: z.string(),
    webhookId: z.string(),
    status: z.enum(EVENT_STATUSES),
    eventType: z.string().nullable(),
    sourceIp: z.string().nullable(),
    attemptCount: z.number().int(),
    lastError: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    parkedAt: z.object({ nodeType: z.string(), nodeId: z.string() }).nullable(),
    awaitingApproval: z.boolean(),
    awaitingMerge: z.boolean(),
    delayed: z.boolean(),
    dedupKey: z.string().nullable(),
    parentEventId: z.string().nullable(),
    chainStep: z.number().int().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("EventSummary");
export type EventSummary = z.infer<typeof EventSummary>;

/** One event with its payload (`shownPayloadOf` the stored body) and sanitised headers. */
export const EventDetail = EventSummary.extend({
  payload: z.unknown().openapi({
    description:
      "The payload as received (any JSON value); a body nested more than 1000 levels deep, which the node graph refuses, is given as its text",
  }),
  headers: z.record(z.string(), z.string()),
  actionRuns: z.array(ActionRun).openapi({
    description: "Runs of the post-delivery actions the event fired, in the order they started",
  }),
}).openapi("Event");
export type EventDetail = z.infer<typeof EventDetail>;

export const DeliveryAttempt = z
  .object({
    id: z.string(),
    _id: z.string(),
    targetUrl: z.string(),
    isAdditionalTarget: z.boolean(),
    targetId: z
      .string()
      .nullable()
      .openapi({ description: "The additional target's id; null for the webhook's own target" }),
    attempt: z.number().int(),
    statusCode: z.number().int(),
    responseBody: z.string(),
    latencyMs: z.number().int(),
    success: z.boolean(),
    error: z.string().nullable(),
    attemptedAt: z.string(),
  })
  .openapi("DeliveryAttempt");
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

function statusOf(value: string): EventStatus {
  const known = (EVENT_STATUSES as readonly string[]).includes(value);
  if (!known) throw new Error(`event has an unknown status: ${value}`);
  return value as EventStatus;
}

export function toEventSummary(row: EventSummaryRow): EventSummary {
  return {
    id: row.id,
    _id: row.id,
    webhookId: row.webhookId,
    status: statusOf(row.status),
    eventType: row.eventType,
    sourceIp: row.sourceIp,
    attemptCount: row.attemptCount,
    lastError: row.lastError,
    lastStatusCode: row.lastStatusCode,
    parkedAt: row.parkedAt ?? null,
    awaitingApproval: row.awaitingApproval,
    awaitingMerge: row.awaitingMerge,
    delayed: row.delayed,
    dedupKey: row.dedupKey,
    parentEventId: row.parentEventId,
    chainStep: row.chainStep,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The payload an event's detail shows: as `payloadOf`, but a body nested deeper than the graph
 * takes (MAX_PAYLOAD_DEPTH) is shown as its text, since the answer could not be written as JSON
 * past a few thousand levels.
 */
function shownPayloadOf(body: string): unknown {
  return jsonTextNestsDeeperThan(body, MAX_PAYLOAD_DEPTH) ? body : payloadOf(body);
}

export function toEventDetail(row: EventRow, actionRuns: readonly ActionRun[]): EventDetail {
  return {
    ...toEventSummary(row),
    payload: shownPayloadOf(row.body),
    headers: row.headers,
    actionRuns: [...actionRuns],
  };
}

export function toDeliveryAttempt(row: StoredDeliveryAttempt): DeliveryAttempt {
  return {
    id: row.id,
    _id: row.id,
    targetUrl: row.targetUrl,
    isAdditionalTarget: row.isAdditionalTarget,
    targetId: row.targetId,
    attempt: row.attempt,
    statusCode: row.statusCode,
    responseBody: row.responseBody,
    latencyMs: row.latencyMs,
    success: row.success,
    error: row.error,
    attemptedAt: row.attemptedAt.toISOString(),
  };
}
