import { applyResumedPark, decideParkOnTimeout, findPark, type ParkRecord } from "@hookflow/db";
import {
  type ApplyPlan,
  EventPipelineState,
  type FamilyConfig,
  type ParkDecision,
  type ParkKind,
  planApply,
  runPipeline,
} from "@hookflow/pipeline";
import { deliveryJobOf, enqueueDeliveries } from "@hookflow/queue";
import type { DeliveryOutcome } from "../delivery/outcome.js";
import type { WorkerServices } from "../services.js";
import { afterApply } from "./after-apply.js";
import { type BuiltWrite, buildApplyWrite, type StoredParkState } from "./build-apply-write.js";
import { gateForwards } from "./gate-forwards.js";
import { graphForEntry } from "./graph-entry.js";
import { parsePayload } from "./run-fresh-pipeline.js";

const PARK_KINDS: readonly ParkKind[] = ["delay", "rateLimiter", "approval", "merge"];

function done(outcome: DeliveryOutcome["outcome"]): DeliveryOutcome {
  return { kind: "done", outcome };
}

/** Why this park goes on now; undefined when it should not (closed, or decided oddly). */
async function decisionOf(
  services: WorkerServices,
  park: ParkRecord,
  autoAction: "approve" | "reject",
): Promise<ParkDecision | undefined> {
  if (park.kind === "approval") {
    // Waiting when its job runs: the gate timed out, unless a decision races in (it wins or loses
    // in one conditional update; `decidedBy` says who decided).
    const decided =
      park.status === "waiting"
        ? await decideParkOnTimeout(services.db, {
            id: park.id,
            status: autoAction === "approve" ? "approved" : "rejected",
            now: services.now(),
          })
        : { status: park.status, decidedBy: park.decidedBy };
    const auto = decided?.decidedBy === "timeout";
    if (decided?.status === "approved") return { kind: "approved", auto };
    if (decided?.status === "rejected") return { kind: "rejected", auto };
    return undefined;
  }
  if (park.status !== "waiting") return undefined;
  return park.kind === "merge" ? { kind: "timeout" } : { kind: "continue" };
}

/**
 * A resume job (`data.parkId`): continues a parked path from its node (delay over, rate-limit
 * slot, approval decided or timed out, merge timed out) and applies what it produced in one
 * transaction under the event's lock. The park is resolved exactly once; a retried job finds it
 * resolved and does nothing. A path that claims the event for delivery hands it to a normal
 * delivery job (job id = event id), so the event never has two delivery jobs.
 */
export async function processResume(
  services: WorkerServices,
  data: { eventId: string; webhookId: string; parkId: string },
): Promise<DeliveryOutcome> {
  const db = services.db;
  const park = await findPark(db, data.parkId);
  if (!park || park.resolvedAt !== null) return done("settled");
  const now = services.now();
  if (park.status === "waiting" && park.resumeAt && park.resumeAt.getTime() > now.getTime() + 5) {
    // Early (the sweeper or a clock ahead of this one): wait for the park's time.
    return { kind: "delay", untilMs: park.resumeAt.getTime(), outcome: "parked" };
  }
  const [webhook, event] = await Promise.all([
    services.webhooks.get(park.webhookId),
    services.batches.readEvent({ id: park.eventId, withBody: false }),
  ]);
  if (!webhook || !event) return done("gone");
  const graph = graphForEntry(await services.pipeline.graphs.get(webhook.id), event.entryNodeId);
  const node = graph.graph.nodes.get(park.nodeId);
  const autoAction =
    node?.family === "approval"
      ? (node.config as FamilyConfig<"approval">).autoActionOnTimeout
      : "reject";
  const stale = event.status === "cancelled" || park.runId !== event.pipelineRun;
  const decision = stale ? undefined : await decisionOf(services, park, autoAction);
  const kind = PARK_KINDS.find((k) => k === park.kind);
  if (!decision || !kind) {
    await applyResumedPark(
      db,
      { eventId: park.eventId, parkId: park.id, parkStatus: "cancelled", now },
      () => ({
        kind: "close",
        status: "cancelled",
      }),
    );
    return done("settled");
  }

  const stored = park.state as unknown as StoredParkState;
  const ran = await runPipeline(
    {
      eventId: event.id,
      webhookId: webhook.id,
      eventType: event.eventType,
      runId: park.runId ?? event.id,
      graph: graph.graph,
      order: graph.order,
      start: {
        kind: "resume",
        nodeId: park.nodeId,
        park: kind,
        path: { id: stored.path.id, payload: parsePayload(park.payload), body: stored.path.body },
        state: stored.engine,
        decision,
      },
    },
    services.pipeline.portsFor(event.id),
  );
  const result = await gateForwards(
    services,
    { eventId: event.id, runId: park.runId ?? event.id, webhook, nodes: graph.graph.nodes },
    ran,
  );
  const expired = result.mergesSettled.some((m) => m.result === "expired");
  const captured: { plan?: ApplyPlan; built?: BuiltWrite } = {};
  const applied = await applyResumedPark(
    db,
    { eventId: event.id, parkId: park.id, parkStatus: expired ? "expired" : "resumed", now },
    (snapshot) => {
      if (snapshot.status === "cancelled" || snapshot.pipelineRun !== park.runId) {
        return { kind: "close", status: "cancelled" };
      }
      const state = snapshot.pipelineState
        ? EventPipelineState.parse(snapshot.pipelineState)
        : null;
      const plan = planApply({
        state,
        outcomes: result.outcomes,
        mergesSettled: result.mergesSettled,
        waitingParks: snapshot.waiting.flatMap((w) => {
          const k = PARK_KINDS.find((candidate) => candidate === w.kind);
          return k ? [{ kind: k, nodeType: w.nodeType, nodeId: w.nodeId }] : [];
        }),
      });
      const built = buildApplyWrite(plan, result.steps, {
        eventId: event.id,
        webhookId: webhook.id,
        eventType: event.eventType,
        runId: park.runId,
        rawBody: park.eventBody,
        now,
      });
      captured.plan = plan;
      captured.built = built;
      return { kind: "write", write: built.write };
    },
  );
  const { plan, built } = captured;
  if (applied.kind !== "applied" || !plan || !built) return done("settled");
  await afterApply(services, {
    eventId: event.id,
    webhookId: webhook.id,
    priority: event.priority,
    plan,
    parks: built.parks,
    result: applied.result,
    nodes: graph.graph.nodes,
    now,
  });
  const planned = plan;
  if (planned.event.kind === "deliver") {
    await enqueueDeliveries(services.queues, [
      deliveryJobOf({ id: event.id, webhookId: webhook.id, priority: event.priority }),
    ]);
  }
  switch (planned.event.kind) {
    case "deliver":
    case "parked":
      return done("parked");
    case "settle":
      return done(planned.event.status);
    case "unchanged":
      return done("settled");
  }
}
