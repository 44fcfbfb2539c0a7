import { createHash } from "node:crypto";
import { type ClaimForwardsResult, claimForwards } from "@hookflow/db";
import { type OwnerColumns, sameOwnerScope } from "@hookflow/domain";
import type { PathOutcome, PipelineNode, RunResult, StepDraft } from "@hookflow/pipeline";
import type { WorkerServices } from "../services.js";

type ForwardOutcome = Extract<PathOutcome, { kind: "forward" }>;

/** The run whose forwards are gated, and the owner of the graph it ran. */
export interface ForwardSource {
  eventId: string;
  /** The run's id (the event id for a graph without stateful nodes): part of each forward's key. */
  runId: string;
  /** The webhook whose graph ran: its owner scope is the only one forwards may reach. */
  webhook: OwnerColumns;
  nodes: ReadonlyMap<string, PipelineNode>;
}

/**
 * One key per forward, stable across retries of the same run (same paths, nodes and targets), so
 * a retried job claims the same budget entries. A path forwarding twice to one webhook (a
 * limiter listing it twice) gets two keys.
 */
function claimKeys(source: ForwardSource, forwards: readonly ForwardOutcome[]): string[] {
  const seen = new Map<string, number>();
  return forwards.map((f) => {
    const identity = [source.eventId, source.runId, f.pathId, f.viaNodeId, f.webhookId].join("\n");
    const n = seen.get(identity) ?? 0;
    seen.set(identity, n + 1);
    return createHash("sha256").update(`${identity}\n${n}`).digest("base64url").slice(0, 24);
  });
}

/** Why each forward the budget refused is blocked, by the claim's answer. */
function budgetReason(result: ClaimForwardsResult, services: WorkerServices): string | undefined {
  const { graphMaxDescendants: max, graphMaxForwardDepth: depth } = services.config;
  switch (result.kind) {
    case "claimed":
      return (
        `at most ${max} events may descend from one ingress event (GRAPH_MAX_DESCENDANTS) and ` +
        `the descendants of ${result.rootEventId} reached that`
      );
    case "too_deep":
      return (
        `forwarding nests at most ${depth} levels (GRAPH_MAX_FORWARD_DEPTH) and this event is ` +
        `${result.depth} levels deep`
      );
    case "root_gone":
      return `the event ${result.rootEventId} this one descends from was deleted, and its forwarding budget with it`;
    case "event_gone":
      return undefined;
  }
}

/**
 * Decides, before a run's outcomes are applied, which of its forwards may create their events.
 * A forward is `blocked` (a step saying why; the path counts as blocked, the event still
 * completes its own delivery) when its webhook is not of the graph's owner scope (the same
 * organization, or for a personal graph the same user: rights are checked when the graph runs,
 * not only when it was written), when it would nest deeper than `GRAPH_MAX_FORWARD_DEPTH`, or
 * when the root event's descendants used up `GRAPH_MAX_DESCENDANTS`. A run without forwards
 * costs nothing; one with forwards, one short transaction on the root's budget.
 */
export async function gateForwards(
  services: WorkerServices,
  source: ForwardSource,
  run: RunResult,
): Promise<RunResult> {
  const forwards = run.outcomes.filter((o): o is ForwardOutcome => o.kind === "forward");
  if (forwards.length === 0) return run;
  const reasons = new Map<ForwardOutcome, string>();
  const inScope: ForwardOutcome[] = [];
  const targets = await Promise.all(forwards.map((f) => services.webhooks.get(f.webhookId)));
  forwards.forEach((forward, i) => {
    const target = targets[i];
    // A webhook deleted meanwhile: the apply skips the forward, as it always did.
    if (target && !sameOwnerScope(target, source.webhook)) {
      reasons.set(forward, "the webhook belongs to another owner than this graph");
    } else if (target && forward.viaNodeType === "flowLink" && !target.acceptsInternalCalls) {
      // Consent is read at run time: a webhook that withdrew it blocks its links' runs.
      reasons.set(forward, "the webhook does not accept internal calls (acceptsInternalCalls)");
    } else {
      inScope.push(forward);
    }
  });
  if (inScope.length > 0) {
    const keys = claimKeys(source, inScope);
    const claimed = await claimForwards(services.db, {
      eventId: source.eventId,
      keys,
      maxDescendants: services.config.graphMaxDescendants,
      maxDepth: services.config.graphMaxForwardDepth,
    });
    const reason = budgetReason(claimed, services);
    inScope.forEach((forward, i) => {
      const granted = claimed.kind === "claimed" && claimed.granted.has(keys[i] as string);
      if (reason !== undefined && !granted) reasons.set(forward, reason);
    });
  }
  if (reasons.size === 0) return run;
  return blockForwards(services, source, run, reasons);
}

/** The run with each refused forward turned into a blocked path, and its steps. */
function blockForwards(
  services: WorkerServices,
  source: ForwardSource,
  run: RunResult,
  reasons: ReadonlyMap<ForwardOutcome, string>,
): RunResult {
  const ports = services.pipeline.portsFor(source.eventId);
  const steps = [...run.steps];
  const outcomes = run.outcomes.map((outcome): PathOutcome => {
    const reason = outcome.kind === "forward" ? reasons.get(outcome) : undefined;
    if (outcome.kind !== "forward" || reason === undefined) return outcome;
    const error = `forward to ${outcome.webhookId} blocked: ${reason}`;
    const via = source.nodes.get(outcome.viaNodeId)?.name ?? outcome.viaNodeId;
    const base = {
      nodeType: "forward",
      nodeId: outcome.webhookId,
      nodeName: `forward from ${via}`,
    };
    const at = services.now().toISOString();
    for (const step of [
      { ...base, status: "running", at },
      { ...base, status: "blocked", durationMs: 0, error, at },
    ] as StepDraft[]) {
      steps.push(step);
      ports.onStep?.(step);
    }
    return {
      kind: "blocked",
      pathId: outcome.pathId,
      nodeId: outcome.viaNodeId,
      nodeType: outcome.viaNodeType,
      reason: error,
    };
  });
  return { ...run, outcomes, steps };
}
