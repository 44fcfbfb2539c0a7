import { matchesAll } from "@hookflow/domain";
import { EventPipelineState } from "@hookflow/pipeline";
import {
  type PendingPipeline,
  parsePayload,
  runFreshPipeline,
} from "../pipeline/run-fresh-pipeline.js";
import type { WorkerServices } from "../services.js";
import { reportPayloadFilter } from "../steps/delivery-steps.js";
import type { LoadedDelivery } from "./load-delivery.js";
import type { DeliveryOutcome } from "./outcome.js";

export type PreparedBody =
  /** `pending`: the graph's result, to be stored with the delivery's first statement. */
  | { kind: "deliver"; body: string; pending?: PendingPipeline }
  | { kind: "done"; outcome: DeliveryOutcome };

const done = (outcome: DeliveryOutcome["outcome"]): PreparedBody => ({
  kind: "done",
  outcome: { kind: "done", outcome },
});

/**
 * What the event delivers, decided once per delivery run before any attempt: the webhook's node
 * graph (payload filters first) on a fresh run, or its payload filters alone when it has no graph.
 * A run the graph already handled (a retry, a deferral, a redelivered job, a child event of a
 * further path) delivers what the graph produced without running anything again.
 */
export async function prepareBody(
  services: WorkerServices,
  loaded: Extract<LoadedDelivery, { kind: "ready" }>,
): Promise<PreparedBody> {
  const { webhook, event, body, run, graph } = loaded;
  if (event.pipelineState !== null) {
    const state = EventPipelineState.safeParse(event.pipelineState);
    // Not claimed: the event's paths wait at nodes; their resume jobs carry it on.
    if (state.success && !state.data.claimed) return done("parked");
    return { kind: "deliver", body: event.deliveryBody ?? body };
  }
  if (!run.fresh) return { kind: "deliver", body };

  if (graph.order.length > 0 || graph.broken) {
    const result = await runFreshPipeline(services, { webhook, event, rawBody: body, graph });
    return result.kind === "deliver" ? result : done(result.outcome);
  }
  if (webhook.payloadFilters.length === 0) return { kind: "deliver", body };
  const filterStarted = performance.now();
  const passed = matchesAll(parsePayload(body), webhook.payloadFilters);
  const filterStep = {
    eventId: event.id,
    webhookId: webhook.id,
    passed,
    durationMs: performance.now() - filterStarted,
  };
  if (!passed) {
    await services.batches.record({
      eventId: event.id,
      webhookId: webhook.id,
      event: { status: "filtered", nextAttemptAt: null },
      now: services.now(),
    });
    reportPayloadFilter(services, filterStep);
    return done("filtered");
  }
  reportPayloadFilter(services, filterStep);
  return { kind: "deliver", body };
}
