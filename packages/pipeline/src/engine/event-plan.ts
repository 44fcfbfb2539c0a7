import type { EventPipelineState } from "./event-pipeline-state.js";
import type { FailureKind, PathOutcome } from "./types.js";

/** A park the event waits at. */
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
