/**
 * Gathering calls into batches under load, shared by the jq pool (per webhook and program) and the
 * JavaScript pool (per sandbox process). Each batch costs a fixed part (a thread wake-up, or a
 * message each way between processes) besides its calls, so while something is under load its
 * batches start at most every `gatherMs` and the calls arriving meanwhile share one; a lone call
 * (sequential traffic, or the first after a quiet spell) never waits.
 */

/** What a pool remembers of the recent batches of one key or process. */
export interface RecentRuns {
  /** When its last batch started. */
  lastStartAtMs: number;
  /** A batch of it is being evaluated. */
  inFlight: boolean;
  /**
   * It is under load: its last batch had company, or calls for it queued while that batch ran.
   * Only then do its calls wait for the gather window; a lone call never waits.
   */
  loaded: boolean;
}

/**
 * How long the next batch waits, in ms (0: start now). One batch at a time: while one is in
 * flight the calls queue (and share the next batch), unless they fill a batch. Under load, batches
 * start at most every `gatherMs`; otherwise (a lone call, or a quiet spell longer than the window)
 * at once, as does a full batch.
 */
export function gatherWaitMs(state: {
  nowMs: number;
  runs: RecentRuns | undefined;
  gatherMs: number;
  full: boolean;
}): number {
  const { runs } = state;
  if (state.full || runs === undefined) return 0;
  if (runs.inFlight) return Number.POSITIVE_INFINITY;
  if (!runs.loaded) return 0;
  return Math.max(0, runs.lastStartAtMs + state.gatherMs - state.nowMs);
}
