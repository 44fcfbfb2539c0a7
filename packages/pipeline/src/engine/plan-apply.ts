import { EMPTY_PIPELINE_STATE, type EventPipelineState } from "./event-pipeline-state.js";
import type {
  ApplyPlan,
  DeliverOutcome,
  EventPlan,
  ForwardOutcome,
  PlannedPark,
  WaitingPark,
} from "./event-plan.js";
import type { MergeSettled, PathOutcome } from "./types.js";

// The event's stored state and the plan's types, where importers have always taken them.
export { EMPTY_PIPELINE_STATE, EventPipelineState } from "./event-pipeline-state.js";
export type {
  ApplyPlan,
  DeliverOutcome,
  EventPlan,
  ForwardOutcome,
  ParkedOutcome,
  PlannedPark,
  WaitingPark,
} from "./event-plan.js";

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
  const resolveMerges = recordSettledMerges(state, input.mergesSettled ?? []);
  const claimedBefore = state.claimed;
  const sorted = sortOutcomes(state, input.outcomes);
  const event: EventPlan = sorted.claim
    ? { kind: "deliver", body: sorted.claim.body }
    : claimedBefore
      ? { kind: "unchanged" }
      : unclaimedEventPlan(state, stillWaiting(state, input.waitingParks, sorted.parks));
  return {
    state,
    event,
    children: sorted.children,
    forwards: sorted.forwards,
    parks: sorted.parks,
    resolveMerges,
  };
}

/** Marks merges settled now in `state`; those it did not know yet have their arrivals resolved. */
function recordSettledMerges(
  state: EventPipelineState,
  mergesSettled: readonly MergeSettled[],
): ApplyPlan["resolveMerges"] {
  const resolveMerges: ApplyPlan["resolveMerges"] = [];
  for (const settled of mergesSettled) {
    if (state.merges[settled.nodeId]) continue;
    state.merges[settled.nodeId] = settled.result;
    resolveMerges.push({
      nodeId: settled.nodeId,
      status: settled.result === "done" ? "resumed" : "expired",
    });
  }
  return resolveMerges;
}

/** What an arrival at a merge node becomes, given how that merge stands in this run. */
function mergeStatus(state: EventPipelineState, nodeId: string): PlannedPark["status"] {
  const merge = state.merges[nodeId];
  return merge === undefined ? "waiting" : merge === "done" ? "resumed" : "expired";
}

interface SortedOutcomes {
  /** The path that claims the event now, if any. */
  claim: DeliverOutcome | undefined;
  children: DeliverOutcome[];
  forwards: ForwardOutcome[];
  parks: PlannedPark[];
}

/** Counts each outcome into `state` and sorts out what the plan carries out for it. */
function sortOutcomes(state: EventPipelineState, outcomes: readonly PathOutcome[]): SortedOutcomes {
  const sorted: SortedOutcomes = { claim: undefined, children: [], forwards: [], parks: [] };
  for (const outcome of outcomes) {
    switch (outcome.kind) {
      case "deliver":
        if (!state.claimed) {
          state.claimed = true;
          sorted.claim = outcome;
        } else {
          state.children += 1;
          sorted.children.push(outcome);
        }
        break;
      case "forward":
        state.forwarded += 1;
        sorted.forwards.push(outcome);
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
        sorted.parks.push({
          outcome,
          status: outcome.park === "merge" ? mergeStatus(state, outcome.nodeId) : "waiting",
        });
        break;
      case "joined":
        break;
    }
  }
  return sorted;
}

/** The parks the event still waits at: those stored before, then this run's new ones. */
function stillWaiting(
  state: EventPipelineState,
  waitingParks: readonly WaitingPark[],
  parks: readonly PlannedPark[],
): WaitingPark[] {
  return [
    ...waitingParks.filter((p) => p.kind !== "merge" || mergeStatus(state, p.nodeId) === "waiting"),
    ...parks
      .filter((p) => p.status === "waiting")
      .map(({ outcome: p }) => ({ kind: p.park, nodeType: p.nodeType, nodeId: p.nodeId })),
  ];
}

/** An event no path has claimed: parked while anything waits, else settled. */
function unclaimedEventPlan(state: EventPipelineState, waiting: readonly WaitingPark[]): EventPlan {
  const first = waiting[0];
  if (first) {
    return {
      kind: "parked",
      awaitingApproval: waiting.some((p) => p.kind === "approval"),
      awaitingMerge: waiting.some((p) => p.kind === "merge"),
      delayed: waiting.some((p) => p.kind === "delay" || p.kind === "rateLimiter"),
      parkedAt: { nodeType: first.nodeType, nodeId: first.nodeId },
    };
  }
  if (state.forwarded > 0) {
    return { kind: "settle", status: "delivered", lastError: null, syncStatus: 200 };
  }
  if (state.failure) {
    return {
      kind: "settle",
      status: "failed",
      lastError: state.failure.error,
      syncStatus: state.failure.kind === "validation" ? 422 : 502,
      failureKind: state.failure.kind,
    };
  }
  return { kind: "settle", status: "filtered", lastError: null, syncStatus: 200 };
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
