import { appendEventSteps, findLinkedEvents, type LinkedEventState } from "@hookflow/db";
import {
  type ApplyPlan,
  type FamilyConfig,
  type PipelineNode,
  type StepDraft,
  stepJson,
} from "@hookflow/pipeline";
import { deliveryJobOf, enqueueDeliveries, laneQueue } from "@hookflow/queue";
import { processDelivery } from "../delivery/process-delivery.js";
import type { WorkerServices } from "../services.js";
import { parsePayload } from "./run-fresh-pipeline.js";

/** How long a sync flow link waits for its webhook's pipeline before recording a timeout. */
const SYNC_LINK_TIMEOUT_MS = 10_000;
const POLL_MS = 50;
const STEP_PAYLOAD_LIMIT_BYTES = 16 * 1024;

/** A sync link's child event: which link made it. */
interface SyncChild {
  link: PipelineNode<"flowLink">;
  eventId: string;
  webhookId: string;
  priority: number;
}

/** The forwards of `plan` made by sync flow links, with the ids their events were created with. */
function syncChildren(
  plan: ApplyPlan,
  forwardIds: readonly string[],
  created: ReadonlyMap<string, { webhookId: string; priority: number }>,
  nodes: ReadonlyMap<string, PipelineNode>,
): SyncChild[] {
  const children: SyncChild[] = [];
  plan.forwards.forEach((forward, i) => {
    const node = nodes.get(forward.viaNodeId);
    const eventId = forwardIds[i];
    const event = eventId === undefined ? undefined : created.get(eventId);
    if (node?.family !== "flowLink" || eventId === undefined || !event) return;
    const link = node as PipelineNode<"flowLink">;
    if ((link.config as FamilyConfig<"flowLink">).mode !== "sync") return;
    children.push({ link, eventId, ...event });
  });
  return children;
}

/**
 * Runs the child's first delivery job here, in process, when its queued job is still waiting
 * (taken off the queue first, so it never runs twice). What the job would hand back to BullMQ
 * is honoured: a later attempt is queued with its delay. Returns false when another worker has
 * the job already (the caller then waits for its result).
 */
async function runInProcess(services: WorkerServices, child: SyncChild): Promise<boolean> {
  const queue = laneQueue(services.queues, child.priority);
  const removed = await queue.remove(child.eventId).catch(() => 0);
  if (removed !== 1) return false;
  const data = { eventId: child.eventId, webhookId: child.webhookId };
  const requeue = (delayMs: number) =>
    enqueueDeliveries(services.queues, [
      {
        ...deliveryJobOf({
          id: child.eventId,
          webhookId: child.webhookId,
          priority: child.priority,
        }),
        delayMs,
      },
    ]);
  try {
    const outcome = await processDelivery(services, data);
    if (outcome.kind === "delay") await requeue(Math.max(0, outcome.untilMs - Date.now()));
  } catch (error) {
    // An infrastructure failure: the queued job (with BullMQ's retries) takes over.
    services.logger.warn({ err: error, eventId: child.eventId }, "sync flow link run failed");
    await requeue(0);
  }
  return true;
}

/** Settled enough to report: its first job ran (delivered, failed, filtered, retrying, parked). */
function hasResult(state: LinkedEventState): boolean {
  return state.status !== "pending" || state.parked;
}

function resultStep(child: SyncChild, state: LinkedEventState | undefined, ms: number): StepDraft {
  const base = {
    nodeType: "flowLink",
    nodeId: child.link.id,
    nodeName: child.link.name,
    durationMs: ms,
    at: new Date().toISOString(),
  };
  if (!state || !hasResult(state)) {
    const error = state
      ? `no result from webhook ${child.link.config.webhookId} within ${SYNC_LINK_TIMEOUT_MS} ms (event ${child.eventId} goes on)`
      : `event ${child.eventId} is gone`;
    return { ...base, status: "error", error } as StepDraft;
  }
  const failed = state.status === "failed";
  return {
    ...base,
    status: failed ? "error" : "success",
    statusCode: state.lastStatusCode ?? undefined,
    error: failed ? (state.lastError ?? "failed") : undefined,
    lastPayload: {
      eventId: state.id,
      status: state.parked ? "parked" : state.status,
      output: state.deliveryBody === null ? null : parsePayload(state.deliveryBody),
    },
  } as StepDraft;
}

/**
 * Sync flow links (docs/decisions.md, Flow links): after the source's run is applied, each child
 * event a sync link created gets its first job run here, in process (its webhook's pipeline, then
 * its first delivery attempt); one another worker took already is waited for, at most
 * SYNC_LINK_TIMEOUT_MS. The result is recorded as the link's step on the source event (status,
 * the webhook's output). Async links never wait.
 */
export async function awaitSyncLinks(
  services: WorkerServices,
  input: {
    eventId: string;
    plan: ApplyPlan;
    forwardIds: readonly string[];
    created: ReadonlyMap<string, { webhookId: string; priority: number }>;
    nodes: ReadonlyMap<string, PipelineNode>;
  },
): Promise<void> {
  const children = syncChildren(input.plan, input.forwardIds, input.created, input.nodes);
  if (children.length === 0) return;
  const started = Date.now();
  for (const child of children) await runInProcess(services, child);
  const ids = children.map((child) => child.eventId);
  let states = new Map<string, LinkedEventState>();
  for (;;) {
    states = new Map((await findLinkedEvents(services.db, ids)).map((s) => [s.id, s]));
    const waiting = ids.some((id) => {
      const state = states.get(id);
      return state !== undefined && !hasResult(state);
    });
    if (!waiting || Date.now() - started >= SYNC_LINK_TIMEOUT_MS) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const ms = Date.now() - started;
  const steps = children.map((child) => resultStep(child, states.get(child.eventId), ms));
  const json = steps.map((step) => stepJson(input.eventId, step, STEP_PAYLOAD_LIMIT_BYTES));
  await appendEventSteps(services.db, input.eventId, json);
  for (const text of json) services.steps.stepJson(input.eventId, text);
}
