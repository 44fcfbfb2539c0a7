import type { DeliveryPhase } from "@hookflow/domain";
import type { DbHandle } from "../../client.js";
import type { EventStepRow } from "../graph/write-pipeline-apply.js";
import { recordDeliveryAttempts } from "./record-delivery-attempts.js";

export interface DeliveryAttemptRow {
  id: string;
  eventId: string;
  webhookId: string;
  targetUrl: string;
  attempt: number;
  statusCode: number;
  /** At most 4 KB; the caller truncates. */
  responseBody: string;
  latencyMs: number;
  success: boolean;
  error: string | null;
  isFallback: boolean;
  attemptedAt: Date;
}

/** The event columns a finished attempt (or a settled event) writes. */
export interface EventDeliveryUpdate {
  status: "pending" | "retrying" | "delivered" | "failed" | "filtered";
  attemptCount?: number;
  lastError?: string | null;
  lastStatusCode?: number | null;
  nextAttemptAt: Date | null;
  deliveredAt?: Date | null;
  deliveryPhase?: DeliveryPhase;
  phaseAttemptCount?: number;
}

export interface HealthAfterOutcome {
  consecutiveFailures: number;
  healthStatus: string;
}

export interface RecordDeliveryAttemptInput {
  /** Absent when the event settles without an attempt (filtered, nothing to deliver, deferral). */
  attempt?: DeliveryAttemptRow;
  eventId: string;
  webhookId: string;
  event: EventDeliveryUpdate;
  /** Set on a final outcome of the primary target: counts toward webhook health. */
  primaryOutcome?: { success: boolean };
  /**
   * What this run's node graph produced, when it was not stored yet: written in the same
   * statement (the graph's state and delivery body on the event, its steps), so a graph that
   * only shapes the delivered body costs no statement of its own.
   */
  pipeline?: PipelineRecord;
  now: Date;
}

export interface PipelineRecord {
  state: Record<string, unknown>;
  /** The bytes the graph produced; null when no node changed the raw body. */
  deliveryBody: string | null;
  steps: EventStepRow[];
}

export interface RecordDeliveryAttemptResult {
  /** False when the event was no longer open (cancelled or settled meanwhile, or deleted). */
  eventUpdated: boolean;
  /** The webhook's health after this outcome, when it changed. */
  health?: HealthAfterOutcome;
}

/**
 * Records one attempt and its consequences in one statement: the attempt row, the event's new
 * state (only while the event is still open, so a concurrent cancel wins), the graph's result
 * when given, and, on a final outcome of the primary target, the webhook's health. The worker
 * group-commits its records through `recordDeliveryAttempts`; this is the same statement for one.
 */
export async function recordDeliveryAttempt(
  handle: DbHandle,
  input: RecordDeliveryAttemptInput,
): Promise<RecordDeliveryAttemptResult> {
  const [result] = await recordDeliveryAttempts(handle, [input]);
  return result ?? { eventUpdated: false };
}
