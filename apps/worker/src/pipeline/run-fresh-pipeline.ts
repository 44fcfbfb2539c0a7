import {
  claimPipelineRun,
  type DeliveryEvent,
  type DeliveryWebhook,
  type PipelineRecord,
  writePipelineApply,
} from "@hookflow/db";
import { newPrefixedId } from "@hookflow/domain";
import {
  type ApplyPlan,
  type EventPlan,
  planApply,
  type RunInput,
  type RunResult,
  runPipeline,
} from "@hookflow/pipeline";
import type { WorkerServices } from "../services.js";
import { afterApply } from "./after-apply.js";
import { type BuiltWrite, buildApplyWrite } from "./build-apply-write.js";
import { gateForwards } from "./gate-forwards.js";
import type { WebhookGraph } from "./graph-cache.js";
import { awaitSyncLinks } from "./sync-links.js";

/**
 * A run whose only outcome is the event's own delivery, not stored yet: the delivery's first
 * statement takes the record and stores it (one statement fewer per event). `settle` runs when
 * the delivery is over: it stores the record alone unless a statement took it, or, when the
 * delivery failed (a statement that took it may not have committed), again: the write applies
 * only while the event has no graph result, so it is a no-op once one was stored. Either way the
 * graph runs once per run, unless Postgres itself is down.
 */
export interface PendingPipeline {
  /** The record for the statement about to run; undefined once a statement took it. */
  take: () => PipelineRecord | undefined;
  settle: (deliveryFailed: boolean) => Promise<void>;
}

export function pendingPipeline(
  record: PipelineRecord,
  persist: () => Promise<void>,
): PendingPipeline {
  let taken = false;
  return {
    take: () => {
      if (taken) return undefined;
      taken = true;
      return record;
    },
    settle: async (deliveryFailed) => {
      if (taken && !deliveryFailed) return;
      taken = true;
      await persist();
    },
  };
}

export type FreshPipelineResult =
  /** Deliver these bytes as the event itself. */
  | { kind: "deliver"; body: string; pending?: PendingPipeline }
  /** The event waits at a node, settled without delivery, or someone else applied the run. */
  | { kind: "done"; outcome: "parked" | "filtered" | "failed" | "delivered" | "settled" };

/** The payload a body holds: its JSON value, or the text itself if it is not JSON. */
export function parsePayload(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function brokenGraph(webhookId: string, error: string): RunResult {
  return {
    outcomes: [
      {
        kind: "failed",
        pathId: "root",
        nodeId: webhookId,
        nodeType: "webhook",
        error,
        failure: "graph",
      },
    ],
    steps: [],
    mergesSettled: [],
  };
}

interface FreshPipelineInput {
  webhook: DeliveryWebhook;
  event: DeliveryEvent;
  rawBody: string;
  graph: WebhookGraph;
}

/** The engine's input for a fresh run: the event's payload enters at its webhook (or entry). */
function freshRunInput(input: FreshPipelineInput, runId: string): RunInput {
  const { webhook, event, rawBody, graph } = input;
  return {
    eventId: event.id,
    webhookId: webhook.id,
    eventType: event.eventType,
    runId,
    graph: graph.graph,
    order: graph.order,
    ...(graph.entry ? { entry: graph.entry } : {}),
    start: {
      kind: "webhook",
      payload: parsePayload(rawBody),
      payloadText: rawBody,
      payloadFilters: webhook.payloadFilters,
    },
  };
}

/** Whether the event's own delivery is all the run did: no parks, new events or merges. */
function onlyDelivers(plan: ApplyPlan, built: BuiltWrite): boolean {
  return (
    plan.event.kind === "deliver" &&
    built.parks.length === 0 &&
    built.write.newEvents.length === 0 &&
    plan.resolveMerges.length === 0
  );
}

/** What the delivery job does once the run is applied. */
function freshOutcome(planned: EventPlan, rawBody: string): FreshPipelineResult {
  switch (planned.kind) {
    case "deliver":
      return { kind: "deliver", body: planned.body ?? rawBody };
    case "parked":
      return { kind: "done", outcome: "parked" };
    case "settle":
      return { kind: "done", outcome: planned.status };
    case "unchanged":
      return { kind: "done", outcome: "settled" };
  }
}

/**
 * Runs a fresh delivery run (first delivery or replay) through the webhook's node graph, once per
 * run: the apply is guarded on `pipeline_state is null`, so a redelivered job or a retry after a
 * deferral applies nothing twice. Graphs with stateful nodes claim a run id first, so a job that
 * runs them again reuses the same merge arrivals and rate-limit members.
 */
export async function runFreshPipeline(
  services: WorkerServices,
  input: FreshPipelineInput,
): Promise<FreshPipelineResult> {
  const { webhook, event, rawBody, graph } = input;
  let runId = event.pipelineRun;
  if (graph.stateful && runId === null) {
    const claimed = await claimPipelineRun(services.db, event.id, newPrefixedId("run"));
    if (claimed === undefined) return { kind: "done", outcome: "settled" };
    runId = claimed;
  }
  const ran = graph.broken
    ? brokenGraph(webhook.id, graph.broken)
    : await runPipeline(
        freshRunInput(input, runId ?? event.id),
        services.pipeline.portsFor(event.id),
      );
  const result = await gateForwards(
    services,
    { eventId: event.id, runId: runId ?? event.id, webhook, nodes: graph.graph.nodes },
    ran,
  );
  const now = services.now();
  const plan = planApply({
    state: null,
    outcomes: result.outcomes,
    mergesSettled: result.mergesSettled,
    waitingParks: [],
  });
  const built = buildApplyWrite(plan, result.steps, {
    eventId: event.id,
    webhookId: webhook.id,
    eventType: event.eventType,
    runId,
    rawBody,
    now,
  });
  const write = { ...built.write, eventId: event.id, now, freshOnly: true };
  if (onlyDelivers(plan, built) && plan.event.kind === "deliver") {
    return {
      kind: "deliver",
      body: plan.event.body ?? rawBody,
      pending: pendingPipeline(
        { state: plan.state, deliveryBody: plan.event.body, steps: built.write.steps },
        async () => {
          await writePipelineApply(services.db.sql, write);
        },
      ),
    };
  }
  const applied = await writePipelineApply(services.db.sql, write);
  if (!applied.applied) return { kind: "done", outcome: "settled" };
  await afterApply(services, {
    eventId: event.id,
    webhookId: webhook.id,
    priority: event.priority,
    plan,
    parks: built.parks,
    result: applied,
    nodes: graph.graph.nodes,
    now,
  });
  await awaitSyncLinks(services, {
    eventId: event.id,
    plan,
    forwardIds: built.write.newEvents.filter((e) => e.forward).map((e) => e.id),
    created: new Map(applied.createdEvents.map((e) => [e.id, e])),
    nodes: graph.graph.nodes,
  });
  return freshOutcome(plan.event, rawBody);
}
