import type { PipelineApplyResult } from "@hookflow/db";
import type { ApplyPlan, PipelineNode } from "@hookflow/pipeline";
import { deliveryJobOf, enqueueDeliveries, enqueueResume } from "@hookflow/queue";
import type { WorkerServices } from "../services.js";
import type { StoredPark } from "./build-apply-write.js";

export interface AfterApply {
  eventId: string;
  webhookId: string;
  priority: number;
  plan: ApplyPlan;
  parks: StoredPark[];
  result: PipelineApplyResult;
  /** The graph's nodes (approval mails read their gate's settings). */
  nodes: ReadonlyMap<string, PipelineNode>;
  now: Date;
}

/**
 * What follows a committed apply: jobs for the events it created and for the parks that wait,
 * approval emails, and the stream's `parked` or `done` message. A crash before these run loses
 * nothing: the sweeper finds pending events and overdue parks that have no job, and approval
 * parks whose mail was never sent (`notified_at` null).
 */
export async function afterApply(services: WorkerServices, input: AfterApply): Promise<void> {
  const { plan, eventId } = input;
  const jobs: Array<Promise<void>> = [];
  if (input.result.createdEvents.length > 0) {
    jobs.push(enqueueDeliveries(services.queues, input.result.createdEvents.map(deliveryJobOf)));
  }
  for (const park of input.parks) {
    if (park.planned.status !== "waiting") continue;
    jobs.push(
      enqueueResume(services.queues, {
        eventId,
        webhookId: input.webhookId,
        parkId: park.id,
        priority: input.priority,
        delayMs: Math.max(0, park.planned.outcome.resumeAt - input.now.getTime()),
      }),
    );
  }
  const approvals = input.parks.filter(
    (park) => park.planned.status === "waiting" && park.planned.outcome.park === "approval",
  );
  // The mail does not wait for the jobs, nor is it skipped when queueing them fails (the retried
  // job finds the event parked and sends nothing); the notifier never throws.
  const [queued] = await Promise.allSettled([
    Promise.all(jobs),
    approvals.length > 0
      ? services.pipeline.approvals.notify(
          { eventId, webhookId: input.webhookId, nodes: input.nodes },
          approvals,
        )
      : undefined,
  ]);
  if (queued.status === "rejected") throw queued.reason;

  switch (plan.event.kind) {
    case "parked":
      services.steps.parked(eventId, {
        ...(plan.event.awaitingApproval ? { awaitingApproval: true } : {}),
        ...(plan.event.awaitingMerge ? { awaitingMerge: true } : {}),
        ...(plan.event.delayed ? { delayed: true } : {}),
      });
      return;
    case "settle":
      services.steps.done(eventId, {
        deliveryStatus: plan.event.status,
        status: plan.event.syncStatus,
      });
      return;
    case "deliver":
    case "unchanged":
      return;
  }
}
