import { z } from "zod";
import type { FailureKind, MergeSettled, PathOutcome } from "./types.js";

/**
 * What an event's pipeline has produced so far in its current run, kept with the event (the
 * worker stores it as JSON) so a retried or resumed job never applies a path twice and the event's
 * status can be derived once its last path ends.
 */
export const EventPipelineState = z.object({
  /** A path claimed the event itself for delivery (the first path that reached its end). */
  claimed: z.boolean(),
  /** Paths delivered as further events of the same webhook. */
  children: z.number().int(),
  forwarded: z.number().int(),
  blocked: z.number().int(),
  failed: z.number().int(),
  /** The first failure, for the event's lastError and its done status. */
  failure: z
    .object({
      nodeId: z.string(),
      nodeType: z.string(),
      error: z.string(),
      kind: z.enum(["validation", "transform", "merge_timeout", "graph"]),
    })
    .optional(),
  /** Merge nodes that went on or timed out in this run: later arrivals there end at once. */
  merges: z.record(z.string(), z.enum(["done", "expired"])).default({}),
});
export type EventPipelineState = z.infer<typeof EventPipelineState>;

export const EMPTY_PIPELINE_STATE: EventPipelineState = {
  claimed: false,
  children: 0,
  forwarded: 0,
  blocked: 0,
  failed: 0,
  merges: {},
};

export interface WaitingPark {
  kind: "delay" | "rateLimiter" | "approval" | "merge";
  nodeType: string;
  nodeId: string;
}

export type ParkedOutcome = Extract<PathOutcome, { kind: "parked" }>;
export type ForwardOutcome = Extract<PathOutcome, { kind: "forward" }>;
export type DeliverOutcome = Extract<PathOutcome, { kind: "deliver" }>;

/** What the event itself becomes after this apply. */
export type EventPlan =
  /** A path claimed the event now: deliver `body` (null = the raw body) to the webhook's targets. */
  | { kind: "deliver"; body: string | null }
  /** The event was claimed earlier; its delivery (or final status) is not this apply's business. */
  | { kind: "unchanged" }
  /** Still pending, waiting at the parks listed. */
  | {
      kind: "parked";
      awaitingApproval: boolean;
      awaitingMerge: boolean;
      delayed: boolean;
      parkedAt: { nodeType: string; nodeId: string };
    }
  /** Every path ended without a delivery of the event itself. */
  | {
      kind: "settle";
      status: "delivered" | "failed" | "filtered";
      lastError: string | null;
      /** The done status: 200, 422 (validation failed) or 502 (any other failure). */
      syncStatus: 200 | 422 | 502;
      failureKind?: FailureKind;
    };

/** A park to store: `waiting`, or already resolved (an arrival at a merge that went on). */
export interface PlannedPark {
  outcome: ParkedOutcome;
  status: "waiting" | "resumed" | "expired";
}

export interface ApplyPlan {
  state: EventPipelineState;
  event: EventPlan;
  /** Ended paths after the first: delivered as child events of the same webhook (graph skipped). */
  children: DeliverOutcome[];
  forwards: ForwardOutcome[];
  parks: PlannedPark[];
  /** Merges settled now: the arrivals still waiting there are resolved with this status. */
  resolveMerges: Array<{ nodeId: string; status: "resumed" | "expired" }>;
}

/**
 * How one run's outcomes change the event (pure; the worker applies the plan in one transaction
 * while holding the event's row lock, passing the parks still waiting besides the one resumed).
 * - The first path to reach its end delivers as the event itself (`claimed`); each later one is
 *   delivered as a child event of the same webhook (`parentEventId`), skipping the graph.
 * - Forwards become new events of their webhooks (they run those webhooks' pipelines).
 * - While the event is not claimed and parks wait, it stays pending with its park flags.
 * - Once no path is left waiting and none claimed the event, it settles: `delivered` when a path
 *   was forwarded, else `failed` when a path failed (first failure's error), else `filtered`.
 */
export function planApply(input: {
  state: EventPipelineState | null;
  outcomes: readonly PathOutcome[];
  mergesSettled?: readonly MergeSettled[];
  waitingParks: readonly WaitingPark[];
}): ApplyPlan {
  const previous = input.state ?? EMPTY_PIPELINE_STATE;
  const state: EventPipelineState = { ...previous, merges: { ...previous.merges } };
  const resolveMerges: ApplyPlan["resolveMerges"] = [];
  for (const settled of input.mergesSettled ?? []) {
    if (state.merges[settled.nodeId]) continue;
    state.merges[settled.nodeId] = settled.result;
    resolveMerges.push({
      nodeId: settled.nodeId,
      status: settled.result === "done" ? "resumed" : "expired",
    });
  }
  const mergeStatus = (nodeId: string) => {
    const merge = state.merges[nodeId];
    return merge === undefined ? "waiting" : merge === "done" ? "resumed" : "expired";
  };
  const claimedBefore = state.claimed;
  let claim: DeliverOutcome | undefined;
  const children: DeliverOutcome[] = [];
  const forwards: ForwardOutcome[] = [];
  const parks: PlannedPark[] = [];
  for (const outcome of input.outcomes) {
    switch (outcome.kind) {
      case "deliver":
        if (!state.claimed) {
          state.claimed = true;
          claim = outcome;
        } else {
          state.children += 1;
          children.push(outcome);
        }
        break;
      case "forward":
        state.forwarded += 1;
        forwards.push(outcome);
        break;
      case "blocked":
        state.blocked += 1;
        break;
      case "failed":
        state.failed += 1;
        state.failure ??= {
          nodeId: outcome.nodeId,
          nodeType: outcome.nodeType,
          error: outcome.error,
          kind: outcome.failure,
        };
        break;
      case "parked":
        // An arrival at a merge that already went on (another job won the race) ends with it.
        parks.push({
          outcome,
          status: outcome.park === "merge" ? mergeStatus(outcome.nodeId) : "waiting",
        });
        break;
      case "joined":
        break;
    }
  }
  const plan = (event: EventPlan): ApplyPlan => ({
    state,
    event,
    children,
    forwards,
    parks,
    resolveMerges,
  });
  if (claim) return plan({ kind: "deliver", body: claim.body });
  if (claimedBefore) return plan({ kind: "unchanged" });
  const waiting: WaitingPark[] = [
    ...input.waitingParks.filter((p) => p.kind !== "merge" || mergeStatus(p.nodeId) === "waiting"),
    ...parks
      .filter((p) => p.status === "waiting")
      .map(({ outcome: p }) => ({ kind: p.park, nodeType: p.nodeType, nodeId: p.nodeId })),
  ];
  const first = waiting[0];
  if (first) {
    return plan({
      kind: "parked",
      awaitingApproval: waiting.some((p) => p.kind === "approval"),
      awaitingMerge: waiting.some((p) => p.kind === "merge"),
      delayed: waiting.some((p) => p.kind === "delay" || p.kind === "rateLimiter"),
      parkedAt: { nodeType: first.nodeType, nodeId: first.nodeId },
    });
  }
  if (state.forwarded > 0) {
    return plan({ kind: "settle", status: "delivered", lastError: null, syncStatus: 200 });
  }
  if (state.failure) {
    return plan({
      kind: "settle",
      status: "failed",
      lastError: state.failure.error,
      syncStatus: state.failure.kind === "validation" ? 422 : 502,
      failureKind: state.failure.kind,
    });
  }
  return plan({ kind: "settle", status: "filtered", lastError: null, syncStatus: 200 });
}

/**
 * The final status a run predicts on its own (time travel): `delivered` when a path would deliver
 * or be forwarded, else `pending` when a path would wait at a node, else `failed` or `filtered`.
 */
export function predictFinalStatus(
  outcomes: readonly PathOutcome[],
): "delivered" | "pending" | "failed" | "filtered" {
  if (outcomes.some((o) => o.kind === "deliver" || o.kind === "forward")) return "delivered";
  if (outcomes.some((o) => o.kind === "parked")) return "pending";
  if (outcomes.some((o) => o.kind === "failed")) return "failed";
  return "filtered";
}
