import type { ActionFamilyKey, PipelineNode } from "@hookflow/pipeline";
import type { ActionPorts } from "./action-ports.js";

/**
 * What an action's templates read (docs/decisions.md, Post-delivery actions): the original
 * payload, the delivery's last response (`status` 0 and `body` null when no attempt was made),
 * the event's id and type, the webhook's id and name.
 */
export interface ActionTemplateContext {
  payload: unknown;
  response: { status: number; body: unknown };
  event: { id: string; type: string | null };
  webhook: { id: string; name: string };
}

export interface ActionRunInput<F extends ActionFamilyKey = ActionFamilyKey> {
  action: PipelineNode<F>;
  context: ActionTemplateContext;
  /** The delivery's outcome that fired the run. */
  trigger: "success" | "failure";
  /** The run's id (stable across its tries): sent as an idempotency key where the protocol has one. */
  runId: string;
  ports: ActionPorts;
}

/**
 * How a try ended. `retryable` failures are tried again (up to the run's tries); others end the
 * run at once (a refused target, a template error, a 4xx answer).
 */
export type ActionResult =
  | { ok: true; statusCode?: number; response?: string }
  | { ok: false; error: string; retryable: boolean; statusCode?: number; response?: string };

export interface ActionExecutor<F extends ActionFamilyKey> {
  run: (input: ActionRunInput<F>) => Promise<ActionResult>;
}

/** A failure that no retry will change. */
export function permanentFailure(error: string, statusCode?: number): ActionResult {
  return {
    ok: false,
    error,
    retryable: false,
    ...(statusCode === undefined ? {} : { statusCode }),
  };
}

/** HTTP statuses worth another try: timeouts, rate limits and server errors (0: no answer). */
export function isRetryableStatus(statusCode: number): boolean {
  return statusCode === 0 || statusCode === 408 || statusCode === 429 || statusCode >= 500;
}
