import type { DeliveryEvent } from "@hookflow/db";
import type { DeliveryPhase } from "@hookflow/domain";
import type { DeliverJobData } from "@hookflow/queue";
import type { WebhookGraph } from "../pipeline/graph-cache.js";
import { graphForEntry } from "../pipeline/graph-entry.js";
import type { WorkerServices } from "../services.js";
import type { WorkerWebhook } from "../webhooks/webhook-cache.js";

/** Where the event's current delivery run stands. */
export interface DeliveryRun {
  /** True when this job starts a run (first delivery or replay): status was `pending`. */
  fresh: boolean;
  phase: DeliveryPhase;
  /** Attempts the current phase's target already had in this run. */
  phaseAttempts: number;
}

export type LoadedDelivery =
  | { kind: "gone" }
  /** Settled already; `graph` lists its actions, fired again in case a crash lost them. */
  | { kind: "settled"; status: string; chainStep: number | null; graph: WebhookGraph }
  | { kind: "inactive" }
  | {
      kind: "ready";
      webhook: WorkerWebhook;
      event: DeliveryEvent;
      body: string;
      run: DeliveryRun;
      /** The webhook's node graph (cached; read alongside the rest, used on fresh runs). */
      graph: WebhookGraph;
    };

/**
 * The webhook and its node graph (both cached) and the event with its body (one primary-key
 * read, batched with the other jobs starting in the same turn), read in parallel.
 */
export async function loadDelivery(
  services: WorkerServices,
  data: DeliverJobData,
): Promise<LoadedDelivery> {
  const [webhook, event, graph] = await Promise.all([
    services.webhooks.get(data.webhookId),
    services.batches.readEvent({ id: data.eventId, withBody: true }),
    services.pipeline.graphs.get(data.webhookId),
  ]);
  if (!webhook || !event) return { kind: "gone" };
  if (event.status !== "pending" && event.status !== "retrying") {
    return { kind: "settled", status: event.status, chainStep: event.chainStep, graph };
  }
  if (!webhook.isActive) return { kind: "inactive" };
  const fresh = event.status === "pending";
  const run: DeliveryRun = fresh
    ? { fresh, phase: "primary", phaseAttempts: 0 }
    : {
        fresh,
        phase: event.deliveryPhase === "fallback" ? "fallback" : "primary",
        phaseAttempts: event.phaseAttemptCount,
      };
  return {
    kind: "ready",
    webhook,
    event,
    body: event.body ?? "",
    run,
    graph: graphForEntry(graph, event.entryNodeId),
  };
}
