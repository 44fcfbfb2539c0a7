import type { EventDeliveryUpdate } from "@hookflow/db";
import {
  type AttemptClass,
  type DeliveryPhase,
  decideAfterFailure,
  nextAttemptDelayMs,
} from "@hookflow/domain";
import type { SendResult } from "./http-sender.js";
import type { DeliveryOutcome } from "./outcome.js";

export interface SettlementInput {
  result: SendResult;
  /** The attempt's verdict: 2xx, a failure worth retrying, or one that never will succeed. */
  verdict: AttemptClass;
  /** Global attempt number of the event. */
  attempt: number;
  phase: DeliveryPhase;
  /** Attempts the current phase's target had in this run, this one included. */
  phaseAttempts: number;
  webhook: {
    maxRetries: number;
    retryDelaySeconds: number;
    backoffMultiplier: number;
    fallbackUrl: string | null;
  };
  delayScale: number;
  random: () => number;
  now: Date;
}

export interface Settlement {
  /** The event's new delivery state, written with the attempt. */
  event: EventDeliveryUpdate;
  /** Set on a final outcome of the primary target: counts toward webhook health. */
  primaryOutcome: { success: boolean } | undefined;
  /** What the lane worker does with the job. */
  next: DeliveryOutcome;
  lastError: string | null;
}

/**
 * What follows an attempt: delivered, retry after a backoff, move to the fallback target, or
 * failed. Pure (time and randomness come in), so every branch is tested without a worker.
 */
export function planSettlement(input: SettlementInput): Settlement {
  const { result, attempt, phase, phaseAttempts, now } = input;
  const success = input.verdict === "success";
  const lastError = success ? null : (result.error ?? `HTTP ${result.statusCode}`);
  const common = { attemptCount: attempt, lastError, lastStatusCode: result.statusCode };
  const base = { attempt, statusCode: result.statusCode, error: lastError };
  const stay = { deliveryPhase: phase, phaseAttemptCount: phaseAttempts };
  if (success) {
    return {
      event: { ...common, status: "delivered", nextAttemptAt: null, deliveredAt: now, ...stay },
      primaryOutcome: phase === "fallback" ? undefined : { success: true },
      next: { ...base, kind: "done", outcome: "delivered" },
      lastError,
    };
  }
  const decision = decideAfterFailure({
    attempt: phaseAttempts,
    maxRetries: input.webhook.maxRetries,
    permanent: input.verdict === "permanent",
    hasFallback: Boolean(input.webhook.fallbackUrl),
    onFallback: phase === "fallback",
  });
  switch (decision.kind) {
    case "retry": {
      const at = new Date(now.getTime() + retryDelayMs(input));
      return {
        event: { ...common, status: "retrying", nextAttemptAt: at, ...stay },
        primaryOutcome: undefined,
        next: { ...base, kind: "delay", untilMs: at.getTime(), outcome: "retrying" },
        lastError,
      };
    }
    case "fallback":
      return {
        event: {
          ...common,
          status: "retrying",
          nextAttemptAt: now,
          deliveryPhase: "fallback",
          phaseAttemptCount: 0,
        },
        primaryOutcome: { success: false },
        next: { ...base, kind: "delay", untilMs: now.getTime(), outcome: "fallback" },
        lastError,
      };
    case "fail":
      return {
        event: { ...common, status: "failed", nextAttemptAt: null, ...stay },
        primaryOutcome: phase === "fallback" ? undefined : { success: false },
        next: { ...base, kind: "unrecoverable", outcome: "failed" },
        lastError,
      };
  }
}

function retryDelayMs(input: SettlementInput): number {
  return nextAttemptDelayMs({
    attempt: input.phaseAttempts + 1,
    retryDelaySeconds: input.webhook.retryDelaySeconds,
    backoffMultiplier: input.webhook.backoffMultiplier,
    delayScale: input.delayScale,
    random: input.random,
    statusCode: input.result.statusCode,
    retryAfter: input.result.retryAfter,
    nowMs: input.now.getTime(),
  });
}
