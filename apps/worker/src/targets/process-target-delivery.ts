import {
  abandonTargetDelivery,
  findTargetDelivery,
  type LoadedTargetDelivery,
  recordTargetAttempt,
} from "@hookflow/db";
import { buildDeliveryHeaders, classifyAttempt, newId } from "@hookflow/domain";
import { enqueueDeliveries } from "@hookflow/queue";
import type { DeliveryOutcome } from "../delivery/outcome.js";
import type { WorkerServices } from "../services.js";
import type { WorkerWebhook } from "../webhooks/webhook-cache.js";
import { nextTryAt } from "./next-try.js";
import { reportTargetAttempt, reportTargetStarted } from "./target-steps.js";

const done = (outcome: DeliveryOutcome["outcome"]): DeliveryOutcome => ({ kind: "done", outcome });

/**
 * One attempt at an additional target (docs/decisions.md, "Additional targets"): signed with the
 * webhook's secret, through the same guarded sender as every delivery, recorded with
 * `isAdditionalTarget` and the target's id; retried on the target's own budget with the webhook's
 * backoff. The event's row is never touched: its status stays the primary's. After the last
 * failure of a target with `notifyPrimaryOnFailure`, the notification is due (set in the same
 * transaction, so it is created exactly once) and its job is enqueued.
 */
export async function processTargetDelivery(
  services: WorkerServices,
  data: { eventId: string; webhookId: string; targetId: string },
): Promise<DeliveryOutcome> {
  const db = services.db.db;
  const [loaded, webhook] = await Promise.all([
    findTargetDelivery(db, data.eventId, data.targetId),
    services.webhooks.get(data.webhookId),
  ]);
  if (!loaded || !webhook) return done("gone");
  const { delivery, target } = loaded;
  if (delivery.status !== "pending" && delivery.status !== "retrying") return done("settled");
  if (!target?.isActive) {
    const reason = target ? "target deactivated" : "target deleted";
    await abandonTargetDelivery(db, data.eventId, data.targetId, reason, services.now());
    return done("gone");
  }
  return attemptTarget(services, { ...loaded, target }, webhook);
}

async function attemptTarget(
  services: WorkerServices,
  loaded: LoadedTargetDelivery & { target: NonNullable<LoadedTargetDelivery["target"]> },
  webhook: WorkerWebhook,
): Promise<DeliveryOutcome> {
  const { delivery, target } = loaded;
  const number = delivery.attemptCount + 1;
  const step = { eventId: delivery.eventId, targetId: target.id, targetName: target.name };
  reportTargetStarted(services, step);
  const attemptedAt = services.now();
  const headers = buildDeliveryHeaders({
    eventId: delivery.eventId,
    attempt: number,
    keys: webhook.signingKeys,
    body: delivery.body,
    nowMs: attemptedAt.getTime(),
  });
  const result = await services.http.send({ url: target.url, headers, body: delivery.body });
  const verdict = result.refused ? "permanent" : classifyAttempt(result);
  const success = verdict === "success";
  const error = success ? null : (result.error ?? `HTTP ${result.statusCode}`);
  services.workerMetrics.attempts.inc({
    outcome: success ? "success" : result.refused ? "refused" : "failure",
    target: "additional",
  });

  const now = services.now();
  const nextAt = success
    ? null
    : nextTryAt(services, {
        tries: number,
        maxRetries: target.maxRetries,
        permanent: verdict === "permanent",
        result,
        webhook,
        now,
      });
  const status = success ? "delivered" : nextAt ? "retrying" : "failed";
  const notify = status === "failed" && target.notifyPrimaryOnFailure;
  const recorded = await recordTargetAttempt(services.db.db, {
    eventId: delivery.eventId,
    targetId: target.id,
    webhookId: webhook.id,
    expectedAttemptCount: delivery.attemptCount,
    attempt: {
      id: newId("attempt"),
      targetUrl: target.url,
      statusCode: result.statusCode,
      responseBody: result.responseBody,
      latencyMs: result.latencyMs,
      success,
      error,
      attemptedAt,
    },
    status,
    nextAttemptAt: nextAt,
    notify,
    now,
  });
  reportTargetAttempt(services, { ...step, result, success, error });
  const base = { attempt: number, statusCode: result.statusCode, error };
  // Someone else recorded this attempt (a redelivered job racing this one): nothing more here.
  if (!recorded) return { ...base, kind: "done", outcome: "settled" };
  if (nextAt) return { ...base, kind: "delay", untilMs: nextAt.getTime(), outcome: "retrying" };
  if (notify) {
    const data = { eventId: delivery.eventId, webhookId: webhook.id, targetId: target.id };
    await enqueueDeliveries(services.queues, [
      { priority: delivery.priority, data: { ...data, targetFailed: true } },
    ]);
  }
  return { ...base, kind: "done", outcome: success ? "delivered" : "failed" };
}
