import {
  applyResumedPark,
  type DbHandle,
  type DeliveryEvent,
  decideParkOnTimeout,
  findPark,
  type ParkRecord,
  type ResumeApplyResult,
  type ResumePlan,
  type ResumeSnapshot,
} from "@hookflow/db";
import {
  type ApplyPlan,
  EventPipelineState,
  type EventPlan,
  type FamilyConfig,
  type ParkDecision,
  type ParkKind,
  type PipelineNode,
  planApply,
  type RunResult,
  type RunStart,
  runPipeline,
  type WaitingPark,
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

/** What an approval gate does when its wait runs out; `reject` for any other node. */
function autoActionOf(node: PipelineNode | undefined): "approve" | "reject" {
  return node?.family === "approval"
    ? (node.config as FamilyConfig<"approval">).autoActionOnTimeout
    : "reject";
}

/** Closes a park that does not go on (its run is over, or nothing decided it): cancelled. */
function cancelPark(db: DbHandle, park: ParkRecord, now: Date): Promise<ResumeApplyResult> {
  return applyResumedPark(
    db,
    { eventId: park.eventId, parkId: park.id, parkStatus: "cancelled", now },
    () => ({ kind: "close", status: "cancelled" }),
  );
}

/** Where the engine picks the path up again: its node and state as parked, and the decision. */
function resumeStart(park: ParkRecord, kind: ParkKind, decision: ParkDecision): RunStart {
  const stored = park.state as unknown as StoredParkState;
  return {
    kind: "resume",
    nodeId: park.nodeId,
    park: kind,
    path: { id: stored.path.id, payload: parsePayload(park.payload), body: stored.path.body },
    state: stored.engine,
    decision,
  };
}

/** The resumed run to apply, and what the apply planned from it (set inside its transaction). */
interface ResumedRun {
  park: ParkRecord;
  event: DeliveryEvent;
  webhookId: string;
  result: RunResult;
  now: Date;
  plan?: ApplyPlan;
  built?: BuiltWrite;
}

/** The event's other waiting parks, of the kinds the engine knows. */
function waitingParksOf(waiting: ResumeSnapshot["waiting"]): WaitingPark[] {
  return waiting.flatMap((w) => {
    const k = PARK_KINDS.find((candidate) => candidate === w.kind);
    return k ? [{ kind: k, nodeType: w.nodeType, nodeId: w.nodeId }] : [];
  });
}

/** Plans the resumed run's write against the event as locked; closes the park if its run is over. */
function planResumedWrite(snapshot: ResumeSnapshot, resumed: ResumedRun): ResumePlan {
  const { park, event, result, now } = resumed;
  if (snapshot.status === "cancelled" || snapshot.pipelineRun !== park.runId) {
    return { kind: "close", status: "cancelled" };
  }
  const state = snapshot.pipelineState ? EventPipelineState.parse(snapshot.pipelineState) : null;
  const plan = planApply({
    state,
    outcomes: result.outcomes,
    mergesSettled: result.mergesSettled,
    waitingParks: waitingParksOf(snapshot.waiting),
  });
  const built = buildApplyWrite(plan, result.steps, {
    eventId: event.id,
    webhookId: resumed.webhookId,
    eventType: event.eventType,
    runId: park.runId,
    rawBody: park.eventBody,
    now,
  });
  resumed.plan = plan;
  resumed.built = built;
  return { kind: "write", write: built.write };
}

/** The job's outcome once applied: a path handed to a delivery job counts as parked here. */
function resumeOutcome(planned: EventPlan): DeliveryOutcome {
  switch (planned.kind) {
    case "deliver":
    case "parked":
      return done("parked");
    case "settle":
      return done(planned.status);
    case "unchanged":
      return done("settled");
  }
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
  const autoAction = autoActionOf(graph.graph.nodes.get(park.nodeId));
  const stale = event.status === "cancelled" || park.runId !== event.pipelineRun;
  const decision = stale ? undefined : await decisionOf(services, park, autoAction);
  const kind = PARK_KINDS.find((k) => k === park.kind);
  if (!decision || !kind) {
    await cancelPark(db, park, now);
    return done("settled");
  }

  const ran = await runPipeline(
    {
      eventId: event.id,
      webhookId: webhook.id,
      eventType: event.eventType,
      runId: park.runId ?? event.id,
      graph: graph.graph,
      order: graph.order,
      start: resumeStart(park, kind, decision),
    },
    services.pipeline.portsFor(event.id),
  );
  const result = await gateForwards(
    services,
    { eventId: event.id, runId: park.runId ?? event.id, webhook, nodes: graph.graph.nodes },
    ran,
  );
  const expired = result.mergesSettled.some((m) => m.result === "expired");
  const resumed: ResumedRun = { park, event, webhookId: webhook.id, result, now };
  const applied = await applyResumedPark(
    db,
    { eventId: event.id, parkId: park.id, parkStatus: expired ? "expired" : "resumed", now },
    (snapshot) => planResumedWrite(snapshot, resumed),
  );
  const { plan, built } = resumed;
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
  if (plan.event.kind === "deliver") {
    await enqueueDeliveries(services.queues, [
      deliveryJobOf({ id: event.id, webhookId: webhook.id, priority: event.priority }),
    ]);
  }
  return resumeOutcome(plan.event);
}
