import {
  type DeliveryAttemptRow,
  type DeliveryWebhook,
  type PipelineRecord,
  setWebhookCircuitState,
} from "@hookflow/db";
import { type CircuitConfig, classifyAttempt, newId } from "@hookflow/domain";
import type { PipelineNode } from "@hookflow/pipeline";
import { announceActions, fireDeliveryActions } from "../actions/fire-actions.js";
import type { WorkerServices } from "../services.js";
import { reportAttemptSettled } from "../steps/delivery-steps.js";
import type { DeliveryRun } from "./load-delivery.js";
import type { DeliveryOutcome } from "./outcome.js";
import type { PerformedAttempt } from "./perform-attempt.js";
import { planSettlement } from "./plan-settlement.js";

export interface SettleInput {
  webhook: DeliveryWebhook;
  eventId: string;
  run: DeliveryRun;
  targetUrl: string;
  performed: PerformedAttempt;
  /** Set when the attempt went to the primary through an enabled circuit breaker. */
  breaker?: CircuitConfig;
  /** The node graph's result of this run, when not stored yet (recorded with the attempt). */
  pipeline?: PipelineRecord;
  /** Post-delivery actions linked to the webhook (fired once the event is delivered or failed). */
  actions?: readonly PipelineNode[];
}

/**
 * Decides what follows an attempt (delivered, retry, fallback, failed) and records the attempt
 * and the event's new state in one statement, before the job is rescheduled or finished.
 */
export async function settleAttempt(
  services: WorkerServices,
  input: SettleInput,
): Promise<DeliveryOutcome> {
  const { webhook, eventId, run, performed } = input;
  const { result } = performed;
  const now = services.now();
  const verdict = result.refused ? "permanent" : classifyAttempt(result);
  const success = verdict === "success";
  countAttempt(services, performed, success, run.phase === "fallback");
  if (input.breaker) await recordBreaker(services, webhook.id, input.breaker, success, now);

  const { event, primaryOutcome, next, lastError } = planSettlement({
    result,
    verdict,
    attempt: performed.number,
    phase: run.phase,
    phaseAttempts: run.phaseAttempts + 1,
    webhook,
    delayScale: services.config.delayScale,
    random: Math.random,
    now,
  });
  const recorded = await services.batches.record({
    eventId,
    webhookId: webhook.id,
    attempt: attemptRecord(input, success, lastError),
    event,
    primaryOutcome,
    pipeline: input.pipeline,
    now,
  });
  const fired =
    recorded.eventUpdated && (next.outcome === "delivered" || next.outcome === "failed")
      ? await fireDeliveryActions(services, {
          eventId,
          webhookId: webhook.id,
          outcome: next.outcome,
          actions: input.actions ?? [],
          announce: false,
        })
      : [];
  reportAttemptSettled(services, {
    eventId,
    webhookId: webhook.id,
    phase: run.phase,
    result,
    success,
    error: lastError,
    outcome: next.outcome,
    eventUpdated: recorded.eventUpdated,
    beforeDone: () => announceActions(services, eventId, fired),
  });
  if (recorded.health) {
    services.logger.debug({ webhookId: webhook.id, ...recorded.health }, "webhook health");
  }
  // Cancelled (or settled by someone else) while the request was in flight: nothing more to do.
  if (!recorded.eventUpdated) {
    return {
      attempt: performed.number,
      statusCode: result.statusCode,
      error: lastError,
      kind: "done",
      outcome: "settled",
    };
  }
  return next;
}

/** The attempt counter by outcome and target, and the target's latency when it answered. */
function countAttempt(
  services: WorkerServices,
  performed: PerformedAttempt,
  success: boolean,
  onFallback: boolean,
): void {
  const { result } = performed;
  const target = onFallback ? "fallback" : "primary";
  const outcome = success
    ? "success"
    : performed.chaos
      ? "chaos"
      : result.refused
        ? "refused"
        : "failure";
  services.workerMetrics.attempts.inc({ outcome, target });
  if (!performed.chaos && !result.refused) {
    services.workerMetrics.deliveryLatency.observe({ target }, result.latencyMs / 1000);
  }
}

/** Feeds the attempt to the circuit breaker; a state change is stored on the webhook and logged. */
async function recordBreaker(
  services: WorkerServices,
  webhookId: string,
  breaker: CircuitConfig,
  success: boolean,
  now: Date,
): Promise<void> {
  const { state, transition } = await services.breaker.record(
    webhookId,
    breaker,
    success,
    now.getTime(),
  );
  if (transition) {
    await setWebhookCircuitState(services.db.db, webhookId, state.state);
    services.logger.info({ webhookId, ...transition }, "circuit breaker transition");
  }
}

function attemptRecord(
  input: SettleInput,
  success: boolean,
  lastError: string | null,
): DeliveryAttemptRow {
  const { performed, eventId, webhook } = input;
  const { result } = performed;
  return {
    id: newId("attempt"),
    eventId,
    webhookId: webhook.id,
    targetUrl: input.targetUrl,
    attempt: performed.number,
    statusCode: result.statusCode,
    responseBody: result.responseBody,
    latencyMs: result.latencyMs,
    success,
    error: success ? null : lastError,
    isFallback: input.run.phase === "fallback",
    attemptedAt: performed.attemptedAt,
  };
}
