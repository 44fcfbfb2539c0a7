/**
 * Merge-node arrivals of one event at one node, and how each arrival is answered. The worker's
 * Redis store runs the same rules in a Lua script (atomic across workers); `MemoryMergeStore` runs
 * them in process (tests and time travel).
 */
export interface MergeArrival {
  /** The event's pipeline run: arrivals of an earlier run (before a replay) never mix in. */
  runId: string;
  eventId: string;
  nodeId: string;
  /** The arriving path; the same path arriving twice (a retried job) counts once. */
  branchId: string;
  mode: "wait_all" | "first";
  expectedBranchCount: number;
  /** The path's payload as JSON text. */
  payload: string;
}

export type MergeAnswer =
  /** wait_all: not every branch is here yet; `arrived` counts this one. */
  | { kind: "waiting"; arrived: number }
  /** wait_all: this arrival completed the merge: every branch payload, in arrival order. */
  | { kind: "complete"; payloads: string[] }
  /** first: this arrival was first and goes on. */
  | { kind: "first" }
  /** The merge already went on (or timed out) without this path: it ends here. */
  | { kind: "late" };

export interface MergeKey {
  runId: string;
  eventId: string;
  nodeId: string;
}

/** The shared state of one merge (what the Redis hash holds). */
export interface MergeState {
  /** Branch ids in arrival order, with their payloads. */
  arrivals: Array<{ branchId: string; payload: string }>;
  /** The branch whose arrival completed the merge (wait_all) or went first (first). */
  doneBy?: string;
  expired?: boolean;
}

/**
 * The merge rules over a state, mutating it: an arrival is recorded once per branch; the arrival
 * that completes (or, in `first` mode, opens) the merge is remembered, so the same branch arriving
 * again (its job retried) gets the same answer and the merge still goes on exactly once.
 */
export function arriveAtMerge(state: MergeState, arrival: MergeArrival): MergeAnswer {
  if (state.doneBy === arrival.branchId) return doneAnswer(state, arrival);
  if (state.doneBy !== undefined || state.expired) return { kind: "late" };
  if (!state.arrivals.some((a) => a.branchId === arrival.branchId)) {
    state.arrivals.push({ branchId: arrival.branchId, payload: arrival.payload });
  }
  if (arrival.mode === "first" || state.arrivals.length >= arrival.expectedBranchCount) {
    state.doneBy = arrival.branchId;
    return doneAnswer(state, arrival);
  }
  return { kind: "waiting", arrived: state.arrivals.length };
}

function doneAnswer(state: MergeState, arrival: MergeArrival): MergeAnswer {
  if (arrival.mode === "first") return { kind: "first" };
  return { kind: "complete", payloads: state.arrivals.map((a) => a.payload) };
}

/** Expires a merge that has not gone on yet; false when it already did (nothing to fail). */
export function expireMerge(state: MergeState): boolean {
  if (state.doneBy !== undefined) return false;
  state.expired = true;
  return true;
}

/** In-process merge store: the engine's `MergePort` for tests and time travel. */
export class MemoryMergeStore {
  private readonly states = new Map<string, MergeState>();

  private stateOf(key: MergeKey): MergeState {
    const id = `${key.runId}\u0000${key.eventId}\u0000${key.nodeId}`;
    let state = this.states.get(id);
    if (!state) {
      state = { arrivals: [] };
      this.states.set(id, state);
    }
    return state;
  }

  async arrive(arrival: MergeArrival): Promise<MergeAnswer> {
    return arriveAtMerge(this.stateOf(arrival), arrival);
  }

  async expire(key: MergeKey): Promise<boolean> {
    return expireMerge(this.stateOf(key));
  }
}
