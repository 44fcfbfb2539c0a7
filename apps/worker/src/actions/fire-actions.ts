import {
  FAMILIES,
  type FamilyKey,
  MAX_ACTIONS_PER_EVENT,
  type PipelineNode,
  type TriggerOn,
} from "@hookflow/pipeline";
import { type ActionJobData, enqueueActionRuns } from "@hookflow/queue";
import type { WorkerServices } from "../services.js";

/** The delivery's final outcome: delivered fires `success` actions, failed `failure` ones. */
export type SettledDelivery = "delivered" | "failed";

function fires(triggerOn: TriggerOn, trigger: "success" | "failure"): boolean {
  return triggerOn === "always" || triggerOn === trigger;
}

/** The active actions `outcome` fires, by `triggerOn`. */
function actionsFiredBy(
  actions: readonly PipelineNode[],
  outcome: SettledDelivery,
): PipelineNode[] {
  const trigger = outcome === "delivered" ? "success" : "failure";
  return actions.filter((action) => {
    const config = action.config as { isActive?: boolean; triggerOn?: TriggerOn };
    return (
      config.isActive === true && config.triggerOn !== undefined && fires(config.triggerOn, trigger)
    );
  });
}

/**
 * After an event's delivery settled (docs/decisions.md, Post-delivery actions): one job per
 * action it fires, with a stable job id; returns the actions fired. Unless `announce` is false,
 * a `running` step for each goes on the event's stream at once (the caller may announce them
 * itself, with `announceActions`, between its own step and the event's `done`). Called again
 * for an event found settled (a job redelivered after a crash between the record and this call)
 * without announcing: the jobs are added again if they were lost, and each action's run row
 * keeps it from running twice.
 */
export async function fireDeliveryActions(
  services: WorkerServices,
  input: {
    eventId: string;
    webhookId: string;
    outcome: SettledDelivery;
    actions: readonly PipelineNode[];
    announce?: boolean;
  },
): Promise<PipelineNode[]> {
  const all = actionsFiredBy(input.actions, input.outcome);
  if (all.length === 0) return all;
  const fired = all.slice(0, MAX_ACTIONS_PER_EVENT);
  if (all.length > fired.length) {
    services.logger.warn(
      {
        eventId: input.eventId,
        webhookId: input.webhookId,
        skipped: all.slice(fired.length).map((a) => a.id),
      },
      `an event fires at most ${MAX_ACTIONS_PER_EVENT} actions; the rest were skipped`,
    );
  }
  const trigger = input.outcome === "delivered" ? "success" : "failure";
  const runs: ActionJobData[] = fired.map((action) => ({
    actionId: action.id,
    eventId: input.eventId,
    webhookId: input.webhookId,
    trigger,
  }));
  await enqueueActionRuns(services.actions.queue, runs);
  if (input.announce !== false) announceActions(services, input.eventId, fired);
  return fired;
}

/** The `running` step of each fired action on the event's stream (their first try's). */
export function announceActions(
  services: WorkerServices,
  eventId: string,
  fired: readonly PipelineNode[],
): void {
  for (const action of fired) {
    services.steps.step(eventId, {
      nodeType: FAMILIES[action.family as FamilyKey].nodeType,
      nodeId: action.id,
      nodeName: action.name,
      status: "running",
    });
  }
}
