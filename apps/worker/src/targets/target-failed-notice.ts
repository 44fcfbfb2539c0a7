import {
  findTargetDelivery,
  type LoadedTargetDelivery,
  recordTargetNotification,
} from "@hookflow/db";
import { buildDeliveryHeaders, classifyAttempt } from "@hookflow/domain";
import type { DeliveryOutcome } from "../delivery/outcome.js";
import type { WorkerServices } from "../services.js";
import type { WorkerWebhook } from "../webhooks/webhook-cache.js";
import { nextTryAt } from "./next-try.js";
import { reportTargetFailedNotice } from "./target-steps.js";

/** The `target.failed` body: built from the stored delivery, so every try sends the same bytes. */
function targetFailedBody(
  loaded: LoadedTargetDelivery & { target: NonNullable<LoadedTargetDelivery["target"]> },
): string {
  const { delivery, target } = loaded;
  return JSON.stringify({
    type: "target.failed",
    eventId: delivery.eventId,
    webhookId: delivery.webhookId,
    target: { id: target.id, name: target.name, url: target.url },
    attempts: delivery.attemptCount,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    failedAt: (delivery.failedAt ?? delivery.updatedAt).toISOString(),
  });
}

/** Stable across tries, distinct from the event's own deliveries: receivers deduplicate on it. */
function targetFailedMessageId(eventId: string, targetId: string): string {
  return `${eventId}.target-failed.${targetId}`;
}

/**
 * Sends one try of a target's `target.failed` notification to the webhook's primary URL, signed
 * like any delivery, retried on the webhook's budget and backoff (docs/decisions.md, "Additional
 * targets"). It is due exactly once per event run and target (the last failure marks it); each
 * try is guarded on the try count, so a redelivered job never records a try twice.
 */
export async function processTargetFailedNotice(
  services: WorkerServices,
  data: { eventId: string; webhookId: string; targetId: string },
): Promise<DeliveryOutcome> {
  const [loaded, webhook] = await Promise.all([
    findTargetDelivery(services.db.db, data.eventId, data.targetId),
    services.webhooks.get(data.webhookId),
  ]);
  if (!loaded || !webhook) return { kind: "done", outcome: "gone" };
  const { delivery, target } = loaded;
  if (delivery.notifyStatus !== "pending") return { kind: "done", outcome: "settled" };
  if (!target || webhook.targetUrl === "") {
    // Nothing to name or nowhere to send: the notice ends without a request.
    await settle(services, loaded, "failed", null);
    return { kind: "done", outcome: "gone" };
  }
  return sendNotice(services, { ...loaded, target }, webhook);
}

async function sendNotice(
  services: WorkerServices,
  loaded: LoadedTargetDelivery & { target: NonNullable<LoadedTargetDelivery["target"]> },
  webhook: WorkerWebhook,
): Promise<DeliveryOutcome> {
  const { delivery, target } = loaded;
  const tries = delivery.notifyAttemptCount + 1;
  const body = targetFailedBody(loaded);
  const nowMs = services.now().getTime();
  const headers = {
    ...buildDeliveryHeaders({
      eventId: targetFailedMessageId(delivery.eventId, target.id),
      attempt: tries,
      keys: webhook.signingKeys,
      body,
      nowMs,
    }),
    "X-Hookflow-Event-Id": delivery.eventId,
  };
  const result = await services.http.send({ url: webhook.targetUrl, headers, body });
  const verdict = result.refused ? "permanent" : classifyAttempt(result);
  const success = verdict === "success";
  const error = success ? null : (result.error ?? `HTTP ${result.statusCode}`);
  reportTargetFailedNotice(services, {
    eventId: delivery.eventId,
    targetId: target.id,
    targetName: target.name,
    result,
    success,
    error,
  });
  const now = services.now();
  const nextAt = success
    ? null
    : nextTryAt(services, {
        tries,
        maxRetries: webhook.maxRetries,
        permanent: verdict === "permanent",
        result,
        webhook,
        now,
      });
  const status = success ? "sent" : nextAt ? "pending" : "failed";
  const recorded = await settle(services, loaded, status, nextAt);
  const base = { attempt: tries, statusCode: result.statusCode, error };
  if (!recorded) return { ...base, kind: "done", outcome: "settled" };
  if (nextAt) return { ...base, kind: "delay", untilMs: nextAt.getTime(), outcome: "retrying" };
  return { ...base, kind: "done", outcome: success ? "delivered" : "failed" };
}

function settle(
  services: WorkerServices,
  loaded: LoadedTargetDelivery,
  notifyStatus: "pending" | "sent" | "failed",
  nextAttemptAt: Date | null,
): Promise<boolean> {
  return recordTargetNotification(services.db.db, {
    eventId: loaded.delivery.eventId,
    targetId: loaded.delivery.targetId,
    expectedTries: loaded.delivery.notifyAttemptCount,
    notifyStatus,
    nextAttemptAt,
    now: services.now(),
  });
}
