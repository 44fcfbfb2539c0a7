import { FAMILIES, type FamilyKey, type PipelineNode, type TriggerOn } from "@hookflow/pipeline";
import { type ActionJobData, enqueueActionRuns } from "@hookflow/queue";
import type { WorkerServices } from "../services.js";

/** The delivery's final outcome: delivered fires `success` actions, failed `failure` ones. */
export type SettledDelivery = "delivered" | "failed";

function fires(triggerOn: TriggerOn, trigger: "success" | "failure"): boolean {
  return triggerOn === "always" || triggerOn === trigger;
}

/** The active actions `outcome` fires, by `triggerOn`. */
export function actionsFiredBy(
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
 * action it fires, with a stable job id, and a `running` step for each on the event's stream
 * before its `done`. Called again for an event found settled (a job redelivered after a crash
 * between the record and this call), with `announce` false: the jobs are added again if they
 * were lost, and each action's run row keeps it from running twice.
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
): Promise<void> {
  const fired = actionsFiredBy(input.actions, input.outcome);
  if (fired.length === 0) return;
  const trigger = input.outcome === "delivered" ? "success" : "failure";
  const runs: ActionJobData[] = fired.map((action) => ({
    actionId: action.id,
    eventId: input.eventId,
    webhookId: input.webhookId,
    trigger,
  }));
  await enqueueActionRuns(services.actions.queue, runs);
  if (input.announce === false) return;
  for (const action of fired) {
    services.steps.step(input.eventId, {
      nodeType: FAMILIES[action.family as FamilyKey].nodeType,
      nodeId: action.id,
      nodeName: action.name,
      status: "running",
    });
  }
}
