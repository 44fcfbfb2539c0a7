import { finishScheduledRun } from "@hookflow/db";
import type { ScheduledWorkflowConfig } from "@hookflow/pipeline";
import type { WorkerServices } from "../services.js";
import type { ClaimedTick } from "./run-scheduled-tick.js";

/** Thrown to have BullMQ retry the tick's job (with the scheduler's backoff). */
export class RetryScheduledCall extends Error {}

/** Worth another attempt: no answer (timeout, connection error), 408, 429 or a server error. */
function retryable(statusCode: number, refused: boolean): boolean {
  if (refused) return false;
  return statusCode === 0 || statusCode === 408 || statusCode === 429 || statusCode >= 500;
}

function requestHeaders(
  config: ScheduledWorkflowConfig,
  tick: ClaimedTick,
): Record<string, string> {
  const headers: Record<string, string> = {
    "user-agent": "Hookflow-Scheduler/1",
    "x-hookflow-scheduled-workflow": tick.workflowId,
    "x-hookflow-scheduled-for": tick.scheduledFor.toISOString(),
    "x-hookflow-run-id": tick.runId,
  };
  if (config.body !== undefined) headers["content-type"] = "application/json";
  for (const [name, value] of Object.entries(config.headers)) headers[name.toLowerCase()] = value;
  return headers;
}

/**
 * The url mode of a tick: one HTTP call through the delivery sender (its timeout, response cap
 * and private-address guard, so a workflow reaches nothing a webhook target could not). A 2xx
 * succeeds; no answer, 408, 429 or 5xx is retried by BullMQ until the tick's attempts are spent;
 * anything else (a refused target, another 4xx) fails at once. Each attempt is recorded on the
 * tick's run.
 */
export async function callScheduledUrl(
  services: WorkerServices,
  config: ScheduledWorkflowConfig & { url: string },
  tick: ClaimedTick,
): Promise<void> {
  const sent = await services.http.send({
    url: config.url,
    method: config.method,
    headers: requestHeaders(config, tick),
    body: config.body ?? "",
  });
  const ok = sent.statusCode >= 200 && sent.statusCode < 300;
  const again = !ok && retryable(sent.statusCode, sent.refused) && !tick.lastAttempt;
  const error = sent.error ?? (ok ? null : `the url answered ${sent.statusCode}`);
  await finishScheduledRun(services.db.db, tick.runId, {
    status: ok ? "succeeded" : again ? "retrying" : "failed",
    statusCode: sent.statusCode === 0 ? null : sent.statusCode,
    responseBody: sent.statusCode === 0 ? null : sent.responseBody,
    error,
    finishedAt: again ? null : services.now(),
  });
  if (again) throw new RetryScheduledCall(error ?? "retrying");
}
