import { findCanvasSnapshotById } from "@hookflow/db";
import { ForbiddenError, ValidationError } from "@hookflow/domain";
import {
  createDryRunPorts,
  entryOf,
  type RunResult,
  reachableFrom,
  runPipeline,
} from "@hookflow/pipeline";
import { assertVisible, canSee, requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import { type FrozenWebhook, parseFrozenGraph, thawGraph } from "../canvas/frozen-graph.js";
import type { DryRunContext } from "./dry-run-context.js";
import { payloadOf } from "./event-payload.js";
import { loadVisibleEvent } from "./visible-event.js";

/** A time-travel run and the frozen webhook the event entered through. */
export interface TimeTravelRun {
  run: RunResult;
  webhook: FrozenWebhook;
}

/**
 * Runs the event's stored payload through the graph a canvas snapshot froze, with every side
 * effect off (docs/decisions.md, "Node families and canvas"): nothing is delivered, forwarded,
 * parked, counted or stored, and the event is not changed. 400 when the snapshot does not show
 * the event's webhook; 403 when the event would pass a node of the snapshot the actor may not
 * read.
 */
export async function timeTravel(
  ctx: DryRunContext,
  actor: Actor,
  input: { eventId: string; snapshotId: string },
): Promise<TimeTravelRun> {
  requireScope(actor, "events:write");
  const event = await loadVisibleEvent(ctx, actor, input.eventId);
  const snapshot = assertVisible(
    actor,
    await findCanvasSnapshotById(ctx.db.db, input.snapshotId),
    "Canvas snapshot",
  );
  const { graph, webhooks } = thawGraph(parseFrozenGraph(snapshot.graph));
  const webhook = webhooks.get(event.webhookId);
  if (!webhook) {
    throw new ValidationError(
      `snapshotId: Snapshot ${snapshot.id} does not show webhook ${event.webhookId}`,
    );
  }
  // A scheduled workflow's tick enters at the workflow when nodes take it (as in the worker).
  const entry = entryOf(graph, event.entryNodeId);
  const order = reachableFrom(graph, entry ?? event.webhookId);
  const unreadable = order.filter((nodeId) => {
    const node = graph.nodes.get(nodeId);
    return node !== undefined && !canSee(actor, node);
  });
  if (unreadable.length > 0) {
    // Running them would show what they do (a transform's output, say) to someone who may not
    // read them: a snapshot saved before graphs were kept to one owner, or by someone else.
    throw new ForbiddenError(
      `Snapshot ${snapshot.id} runs webhook ${event.webhookId}'s events through nodes you ` +
        `cannot read: ${unreadable.join(", ")}`,
    );
  }
  const ports = createDryRunPorts({
    transform: ctx.transformPort(),
    patterns: ctx.patternPort(),
    now: () => ctx.now().getTime(),
    delayScale: ctx.config.delayScale,
  });
  const run = await runPipeline(
    {
      eventId: event.id,
      webhookId: event.webhookId,
      eventType: event.eventType,
      runId: `time-travel:${snapshot.id}`,
      graph,
      order,
      ...(entry ? { entry } : {}),
      start: {
        kind: "webhook",
        payload: payloadOf(event.body),
        payloadText: event.body,
        payloadFilters: webhook.payloadFilters,
      },
    },
    ports,
  );
  return { run, webhook };
}
