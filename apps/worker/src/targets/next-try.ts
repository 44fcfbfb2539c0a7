import { decideAfterFailure, nextAttemptDelayMs } from "@hookflow/domain";
import type { SendResult } from "../delivery/http-sender.js";
import type { WorkerServices } from "../services.js";

/**
 * When the next try of a target delivery or a `target.failed` notice is due after a failed try,
 * or null when its budget is spent (or the failure is permanent): the webhook's backoff
 * (`retryDelaySeconds`, `backoffMultiplier`, `Retry-After`) on the given budget.
 */
export function nextTryAt(
  services: WorkerServices,
  input: {
    tries: number;
    maxRetries: number;
    permanent: boolean;
    result: SendResult;
    webhook: { retryDelaySeconds: number; backoffMultiplier: number };
    now: Date;
  },
): Date | null {
  const decision = decideAfterFailure({
    attempt: input.tries,
    maxRetries: input.maxRetries,
    permanent: input.permanent,
    hasFallback: false,
    onFallback: false,
  });
  if (decision.kind !== "retry") return null;
  const nowMs = input.now.getTime();
  const delay = nextAttemptDelayMs({
    attempt: input.tries + 1,
    retryDelaySeconds: input.webhook.retryDelaySeconds,
    backoffMultiplier: input.webhook.backoffMultiplier,
    delayScale: services.config.delayScale,
    random: Math.random,
    statusCode: input.result.statusCode,
    retryAfter: input.result.retryAfter,
    nowMs,
  });
  return new Date(nowMs + delay);
}
