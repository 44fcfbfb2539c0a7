import { setWebhookCircuitState } from "@hookflow/db";
import { type CircuitConfig, cooldownMs } from "@hookflow/domain";
import type { DeliverJobData } from "@hookflow/queue";
import { fireDeliveryActions } from "../actions/fire-actions.js";
import { refireSettledActions } from "../actions/refire-settled-actions.js";
import { continueChain } from "../chains/continue-chain.js";
import { processResume } from "../pipeline/process-resume.js";
import type { PendingPipeline } from "../pipeline/run-fresh-pipeline.js";
import type { WorkerServices } from "../services.js";
import {
  reportAttemptStarted,
  reportCircuitOpen,
  reportSettledWithoutAttempt,
} from "../steps/delivery-steps.js";
import { fanOutToTargets } from "../targets/fan-out.js";
import { processTargetDelivery } from "../targets/process-target-delivery.js";
import { processTargetFailedNotice } from "../targets/target-failed-notice.js";
import { type LoadedDelivery, loadDelivery } from "./load-delivery.js";
import type { DeliveryOutcome } from "./outcome.js";
import { performAttempt } from "./perform-attempt.js";
import { prepareBody } from "./prepare-body.js";
import { settleAttempt } from "./settle-attempt.js";
import { lockDurationMs } from "./timing.js";

/**
 * One delivery job: load, run the node graph (or the payload filters), respect the rate limit and
 * the circuit breaker, attempt, record. A resume job (`parkId`) continues a parked path instead.
 * Expected outcomes come back as values; only infrastructure failures (Postgres or Redis down)
 * throw, and BullMQ retries those.
 */
export async function processDelivery(
  services: WorkerServices,
  data: DeliverJobData,
): Promise<DeliveryOutcome> {
  if (data.targetId !== undefined) {
    const job = { eventId: data.eventId, webhookId: data.webhookId, targetId: data.targetId };
    return data.targetFailed
      ? processTargetFailedNotice(services, job)
      : processTargetDelivery(services, job);
  }
  if (data.parkId !== undefined) {
    return processResume(services, {
      eventId: data.eventId,
      webhookId: data.webhookId,
      parkId: data.parkId,
    });
  }
  const loaded = await loadDelivery(services, data);
  switch (loaded.kind) {
    case "gone":
      return { kind: "done", outcome: "gone" };
    case "settled":
      // A worker may have died between recording the delivery and what follows it: the
      // chain's next step and the delivery's actions.
      if (loaded.status === "delivered") await resumeChain(services, data, loaded.chainStep);
      await refireSettledActions(services, data, loaded);
      return { kind: "done", outcome: "settled" };
    case "inactive":
      // Stays pending; the sweeper enqueues it again once the webhook is active.
      return { kind: "done", outcome: "inactive" };
    case "ready":
      break;
  }
  const { webhook, event } = loaded;
  // Webhook-level live streams learn of the event here (gathered, one Redis call per 20 ms).
  services.webhookFeed.announce(webhook.id, event.id);
  // A sync-mode request may be waiting: its steps skip the publisher's gather window.
  if (webhook.responseMode === "sync") services.steps.expedite(event.id);
  const prepared = await prepareBody(services, loaded);
  if (prepared.kind === "done") return prepared.outcome;
  const { pending } = prepared;
  // A run's first job hands the body to the webhook's additional targets, before the primary
  // attempt (docs/decisions.md, "Additional targets"); a redelivered job finds them started.
  const fanOut = async () => {
    if (!loaded.run.fresh) return;
    await fanOutToTargets(services, {
      webhookId: webhook.id,
      eventId: event.id,
      priority: event.priority,
      run: event.attemptCount,
      body: prepared.body,
    });
  };
  const chained = async (outcome: DeliveryOutcome) => {
    if (outcome.outcome === "delivered") {
      await continueChain(services, {
        eventId: event.id,
        webhookId: webhook.id,
        chainStep: event.chainStep,
        chainWebhookIds: webhook.chainWebhookIds,
      });
    }
    return outcome;
  };
  if (!pending) {
    await fanOut();
    return chained(await deliver(services, { ...loaded, body: prepared.body }, undefined));
  }
  // Whatever way the delivery ends, the graph's result is stored (with its first record, or
  // alone here), so this run never runs the graph again.
  let outcome: DeliveryOutcome;
  try {
    await fanOut();
    outcome = await deliver(services, { ...loaded, body: prepared.body }, pending);
  } catch (error) {
    await pending
      .settle(true)
      .catch((persistError: unknown) =>
        services.logger.warn(
          { err: persistError, eventId: event.id },
          "could not store the graph's result after a failed delivery; it runs again on retry",
        ),
      );
    throw error;
  }
  await pending.settle(false);
  return chained(outcome);
}

/** Continues the chain of an event a job found delivered (see `continueChain`). */
async function resumeChain(
  services: WorkerServices,
  data: DeliverJobData,
  chainStep: number | null,
): Promise<void> {
  const webhook = await services.webhooks.get(data.webhookId);
  if (!webhook) return;
  await continueChain(services, {
    eventId: data.eventId,
    webhookId: webhook.id,
    chainStep,
    chainWebhookIds: webhook.chainWebhookIds,
  });
}

/** The attempt (or the reason there is none) for a prepared body. */
async function deliver(
  services: WorkerServices,
  loaded: Extract<LoadedDelivery, { kind: "ready" }>,
  pending: PendingPipeline | undefined,
): Promise<DeliveryOutcome> {
  const { webhook, event, run, body } = loaded;
  /** The graph's result when not stored yet: it rides along with this job's first record. */
  const withPipeline = () => {
    const record = pending?.take();
    return record ? { pipeline: record } : {};
  };
  const db = services.db.db;
  const now = services.now();

  if (run.phase === "primary" && webhook.targetUrl === "") {
    await services.batches.record({
      eventId: event.id,
      webhookId: webhook.id,
      event: { status: "delivered", nextAttemptAt: null, deliveredAt: now, lastError: null },
      ...withPipeline(),
      now,
    });
    await fireDeliveryActions(services, {
      eventId: event.id,
      webhookId: webhook.id,
      outcome: "delivered",
      actions: loaded.graph.actions,
    });
    reportSettledWithoutAttempt(services, { eventId: event.id, deliveryStatus: "delivered" });
    return { kind: "done", outcome: "delivered" };
  }
  const targetUrl = run.phase === "fallback" ? webhook.fallbackUrl : webhook.targetUrl;
  if (!targetUrl) {
    const error = "fallback url removed before the fallback attempt";
    await services.batches.record({
      eventId: event.id,
      webhookId: webhook.id,
      event: { status: "failed", nextAttemptAt: null, lastError: error },
      ...withPipeline(),
      now,
    });
    reportSettledWithoutAttempt(services, { eventId: event.id, deliveryStatus: "failed" });
    return { kind: "unrecoverable", outcome: "failed", error };
  }

  const waitMs = await services.rateLimiter.acquire({
    webhookId: webhook.id,
    perSecond: webhook.rateLimitPerSecond,
    perMinute: webhook.rateLimitPerMinute,
    eventId: event.id,
  });
  if (waitMs > 0) {
    // Deferred, never dropped, never counted as a failure; the event row is left as it is. The
    // jitter spreads a deferred backlog over the window instead of waking it all at once.
    const jitter = Math.floor(Math.random() * Math.min(waitMs, 1_000));
    // The graph's result is stored on the way out (see processDelivery).
    return { kind: "delay", untilMs: Date.now() + waitMs + jitter, outcome: "rate_limited" };
  }

  let breaker: CircuitConfig | undefined;
  if (run.phase === "primary" && webhook.circuitBreakerEnabled) {
    breaker = {
      threshold: webhook.circuitBreakerThreshold,
      cooldownSeconds: webhook.circuitBreakerCooldownSeconds,
      probeTimeoutMs: lockDurationMs(services.config.deliveryTimeoutMs),
    };
    const nowMs = now.getTime();
    const { decision, transition } = await services.breaker.acquire(
      webhook.id,
      breaker,
      nowMs,
      services.config.delayScale,
    );
    if (transition) await setWebhookCircuitState(db, webhook.id, transition.to);
    if (!decision.allow) {
      // Wake up at the end of the cooldown, or poll once per cooldown while a probe is out.
      const poll = Math.max(50, cooldownMs(breaker, services.config.delayScale));
      const untilMs = Math.min(decision.retryAtMs, nowMs + poll) + Math.floor(Math.random() * 20);
      await services.batches.record({
        eventId: event.id,
        webhookId: webhook.id,
        event: {
          status: "retrying",
          nextAttemptAt: new Date(untilMs),
          ...(run.fresh ? { deliveryPhase: "primary" as const, phaseAttemptCount: 0 } : {}),
        },
        ...withPipeline(),
        now,
      });
      reportCircuitOpen(services, { eventId: event.id, webhookId: webhook.id });
      return { kind: "delay", untilMs, outcome: "circuit_open" };
    }
  }

  reportAttemptStarted(services, { eventId: event.id, webhookId: webhook.id, phase: run.phase });
  const performed = await performAttempt(services, { webhook, event, body, targetUrl });
  return settleAttempt(services, {
    webhook,
    eventId: event.id,
    run,
    targetUrl,
    performed,
    breaker,
    pipeline: pending?.take(),
    actions: loaded.graph.actions,
  });
}
