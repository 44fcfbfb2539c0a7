import { finishScheduledRun, recordInjectedEvent } from "@hookflow/db";
import { eventTypeOf, newId, sameOwnerScope } from "@hookflow/domain";
import type { PipelineNode, ScheduledWorkflowConfig } from "@hookflow/pipeline";
import { deliveryJobOf, enqueueDeliveries } from "@hookflow/queue";
import { parsePayload } from "../pipeline/run-fresh-pipeline.js";
import type { WorkerServices } from "../services.js";
import type { ClaimedTick } from "./run-scheduled-tick.js";

/** The event body of a tick: the workflow's `body`, or one naming the workflow and the tick. */
function tickBody(config: ScheduledWorkflowConfig, tick: ClaimedTick): string {
  if (config.body !== undefined) return config.body;
  return JSON.stringify({
    type: "scheduled_workflow.tick",
    scheduledWorkflowId: tick.workflowId,
    scheduledFor: tick.scheduledFor.toISOString(),
  });
}

/**
 * The webhook mode of a tick: `body` becomes an event of the webhook, stored like an ingress
 * event (pending, in the webhook's priority lane) and visible like any other, in one transaction
 * with the run's success. Rights are checked now, not only when the workflow was written: the
 * webhook must still exist and belong to the workflow's organization or personal space. An
 * inactive webhook keeps the event pending, as a test event would be; the sweeper queues it once
 * the webhook is active again, as it does a lost job.
 */
export async function injectScheduledEvent(
  services: WorkerServices,
  workflow: PipelineNode<"scheduledWorkflow">,
  webhookId: string,
  tick: ClaimedTick,
): Promise<void> {
  const webhook = await services.webhooks.get(webhookId);
  const problem = !webhook
    ? `webhook ${webhookId} no longer exists`
    : !sameOwnerScope(webhook, workflow)
      ? `blocked: webhook ${webhookId} is not of this workflow's organization or personal space`
      : undefined;
  const body = tickBody(workflow.config, tick);
  const tooLarge = Buffer.byteLength(body, "utf8") > services.config.maxPayloadBytes;
  if (!webhook || problem || tooLarge) {
    await finishScheduledRun(services.db.db, tick.runId, {
      status: "failed",
      error:
        problem ?? `the body is larger than MAX_PAYLOAD_BYTES (${services.config.maxPayloadBytes})`,
      finishedAt: services.now(),
    });
    return;
  }
  const now = services.now();
  const eventId = newId("event", now.getTime());
  const payload = parsePayload(body);
  await recordInjectedEvent(
    services.db.db,
    tick.runId,
    {
      id: eventId,
      webhookId,
      status: "pending",
      eventType: eventTypeOf(payload),
      body,
      headers: {
        "content-type": typeof payload === "string" ? "text/plain" : "application/json",
        "user-agent": "Hookflow-Scheduler/1",
        "x-hookflow-scheduled-workflow": workflow.id,
      },
      sourceIp: null,
      priority: webhook.priority,
      // Nodes listing the workflow in inputNodes take the tick (see graphForEntry).
      entryNodeId: workflow.id,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    },
    now,
  );
  if (!webhook.isActive) return;
  const job = deliveryJobOf({ id: eventId, webhookId, priority: webhook.priority });
  await enqueueDeliveries(services.queues, [job]).catch((error: unknown) =>
    // Stored and pending: the sweeper enqueues it once its grace period passes.
    services.logger.warn({ err: error, eventId }, "could not enqueue a scheduled event"),
  );
}
