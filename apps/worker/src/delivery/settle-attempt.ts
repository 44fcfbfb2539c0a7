import {
  type DeliveryWebhook,
  type EventDeliveryUpdate,
  type PipelineRecord,
  setWebhookCircuitState,
} from "@hookflow/db";
import {
  type CircuitConfig,
  classifyAttempt,
  decideAfterFailure,
  newId,
  nextAttemptDelayMs,
} from "@hookflow/domain";
import type { PipelineNode } from "@hookflow/pipeline";
import { announceActions, fireDeliveryActions } from "../actions/fire-actions.js";
import type { WorkerServices } from "../services.js";
import { reportAttemptSettled } from "../steps/delivery-steps.js";
import type { DeliveryRun } from "./load-delivery.js";
import type { DeliveryOutcome } from "./outcome.js";
import type { PerformedAttempt } from "./perform-attempt.js";

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
  const { webhook, eventId, run, targetUrl, performed } = input;
  const { result } = performed;
  const now = services.now();
  const nowMs = now.getTime();
  const verdict = result.refused ? "permanent" : classifyAttempt(result);
  const success = verdict === "success";
  const onFallback = run.phase === "fallback";
  const phaseAttempts = run.phaseAttempts + 1;

  services.workerMetrics.attempts.inc({
    outcome: success
      ? "success"
      : performed.chaos
        ? "chaos"
        : result.refused
          ? "refused"
          : "failure",
    target: onFallback ? "fallback" : "primary",
  });
  if (!performed.chaos && !result.refused) {
    services.workerMetrics.deliveryLatency.observe(
      { target: onFallback ? "fallback" : "primary" },
      result.latencyMs / 1000,
    );
  }

  if (input.breaker) {
    const { state, transition } = await services.breaker.record(
      webhook.id,
      input.breaker,
      success,
      nowMs,
    );
    if (transition) {
      await setWebhookCircuitState(services.db.db, webhook.id, state.state);
      services.logger.info({ webhookId: webhook.id, ...transition }, "circuit breaker transition");
    }
  }

  const lastError = success ? null : (result.error ?? `HTTP ${result.statusCode}`);
  const common = {
    attemptCount: performed.number,
    lastError,
    lastStatusCode: result.statusCode,
  };
  let event: EventDeliveryUpdate;
  let primaryOutcome: { success: boolean } | undefined;
  let next: DeliveryOutcome;
  const base = { attempt: performed.number, statusCode: result.statusCode, error: lastError };

  if (success) {
    event = {
      ...common,
      status: "delivered",
      nextAttemptAt: null,
      deliveredAt: now,
      deliveryPhase: run.phase,
      phaseAttemptCount: phaseAttempts,
    };
    primaryOutcome = onFallback ? undefined : { success: true };
    next = { ...base, kind: "done", outcome: "delivered" };
  } else {
    const decision = decideAfterFailure({
      attempt: phaseAttempts,
      maxRetries: webhook.maxRetries,
      permanent: verdict === "permanent",
      hasFallback: Boolean(webhook.fallbackUrl),
      onFallback,
    });
    switch (decision.kind) {
      case "retry": {
        const delay = nextAttemptDelayMs({
          attempt: phaseAttempts + 1,
          retryDelaySeconds: webhook.retryDelaySeconds,
          backoffMultiplier: webhook.backoffMultiplier,
          delayScale: services.config.delayScale,
          random: Math.random,
          statusCode: result.statusCode,
          retryAfter: result.retryAfter,
          nowMs,
        });
        const at = new Date(nowMs + delay);
        event = {
          ...common,
          status: "retrying",
          nextAttemptAt: at,
          deliveryPhase: run.phase,
          phaseAttemptCount: phaseAttempts,
        };
        next = { ...base, kind: "delay", untilMs: at.getTime(), outcome: "retrying" };
        break;
      }
      case "fallback":
        event = {
          ...common,
          status: "retrying",
          nextAttemptAt: now,
          deliveryPhase: "fallback",
          phaseAttemptCount: 0,
        };
        primaryOutcome = { success: false };
        next = { ...base, kind: "delay", untilMs: nowMs, outcome: "fallback" };
        break;
      case "fail":
        event = {
          ...common,
          status: "failed",
          nextAttemptAt: null,
          deliveryPhase: run.phase,
          phaseAttemptCount: phaseAttempts,
        };
        primaryOutcome = onFallback ? undefined : { success: false };
        next = { ...base, kind: "unrecoverable", outcome: "failed" };
        break;
    }
  }

  const recorded = await services.batches.record({
    eventId,
    webhookId: webhook.id,
    attempt: {
      id: newId("attempt"),
      eventId,
      webhookId: webhook.id,
      targetUrl,
      attempt: performed.number,
      statusCode: result.statusCode,
      responseBody: result.responseBody,
      latencyMs: result.latencyMs,
      success,
      error: success ? null : lastError,
      isFallback: onFallback,
      attemptedAt: performed.attemptedAt,
    },
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
  if (!recorded.eventUpdated) return { ...base, kind: "done", outcome: "settled" };
  return next;
}
