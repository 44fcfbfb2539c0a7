import type { DeliverJobData } from "@hookflow/queue";
import type { WebhookGraph } from "../pipeline/graph-cache.js";
import type { WorkerServices } from "../services.js";
import { fireDeliveryActions } from "./fire-actions.js";

/**
 * A delivery job found its event already delivered or failed: a job redelivered after its worker
 * died, perhaps between recording the outcome and firing the actions. The actions are fired
 * again (without announcing them): a lost job is added back, a run that took place is not
 * repeated (its row), so no action is lost and none fires twice.
 */
export async function refireSettledActions(
  services: WorkerServices,
  data: DeliverJobData,
  loaded: { status: string; graph: WebhookGraph },
): Promise<void> {
  if (data.parkId !== undefined || loaded.graph.actions.length === 0) return;
  if (loaded.status !== "delivered" && loaded.status !== "failed") return;
  await fireDeliveryActions(services, {
    eventId: data.eventId,
    webhookId: data.webhookId,
    outcome: loaded.status,
    actions: loaded.graph.actions,
    announce: false,
  });
}
