import type { PayloadFilter } from "@hookflow/domain";
import type { MergeAnswer, MergeArrival, MergeKey } from "../executors/merge.js";
import type { RateLimitAnswer } from "../executors/rate-limit.js";
import type { PatternPort } from "../executors/schema-validator.js";
import type { AiNodeConfig } from "../families/ai-node.js";
import type { NodeType } from "../families/common.js";
import type { TransformNodeConfig } from "../families/definitions.js";
import type { PipelineGraph } from "../graph/build-graph.js";
import type { PipelineStep } from "../steps.js";

/**
 * One path of an event through the graph. `body` is the exact text to deliver, or null while no
 * node has changed the payload (the raw ingress body goes out then).
 */
export interface PathState {
  /** Stable per path within a run: `root`, `root>fltn_b` after a fan-out, `mrg_x` after a merge. */
  id: string;
  payload: unknown;
  body: string | null;
}

export type ParkKind = "delay" | "rateLimiter" | "approval" | "merge";
export type FailureKind = "validation" | "transform" | "merge_timeout" | "graph";

/** What became of one path (a path can also emit forwards on its way; see `forward`). */
export type PathOutcome =
  | { kind: "deliver"; pathId: string; payload: unknown; body: string | null }
  | {
      kind: "forward";
      pathId: string;
      webhookId: string;
      viaNodeId: string;
      viaNodeType: NodeType;
      payload: unknown;
      body: string | null;
    }
  | { kind: "blocked"; pathId: string; nodeId: string; nodeType: NodeType; reason: string }
  | {
      kind: "failed";
      pathId: string;
      nodeId: string;
      nodeType: NodeType;
      error: string;
      failure: FailureKind;
    }
  | {
      kind: "parked";
      pathId: string;
      nodeId: string;
      nodeType: NodeType;
      park: ParkKind;
      /** Epoch ms the path goes on (delay, queue) or times out (approval, merge). */
      resumeAt: number;
      payload: unknown;
      body: string | null;
      /** Continuation data the resume needs back (kept with the park, opaque to others). */
      state: Record<string, unknown>;
    }
  /** Absorbed by a merge that went on with another path (or expired): counts as nothing. */
  | { kind: "joined"; pathId: string; nodeId: string };

/** A step as the engine emits it; the worker adds the event id. */
export type StepDraft = Omit<PipelineStep, "eventId">;

export interface TransformContext {
  eventId: string;
  webhookId: string;
  eventType: string | null;
  nodeId: string;
  nodeName: string;
}

export type TransformOutput =
  | { ok: true; payload: unknown; body: string }
  | { ok: false; error: string };

/** Runs a transform node's template (sandboxed by the caller). Never throws for user errors. */
export interface TransformPort {
  run(input: {
    mode: TransformNodeConfig["transformMode"];
    template: string;
    payload: unknown;
    context: TransformContext;
  }): Promise<TransformOutput>;
}

/**
 * The shared sliding window of rate-limiter nodes. `member` identifies the arrival (run, node and
 * path), so the same arrival asked twice (a retried job) is counted once. A dry run answers
 * without counting.
 */
export interface RateLimitPort {
  acquire(input: {
    nodeId: string;
    member: string;
    maxEvents: number;
    windowMs: number;
  }): Promise<RateLimitAnswer>;
}

export interface MergePort {
  arrive(arrival: MergeArrival): Promise<MergeAnswer>;
  /** Expires a merge that has not gone on; false when it already went on. */
  expire(key: MergeKey): Promise<boolean>;
}

/** What an AI node asks for: its config and the messages it starts with. */
export interface AiRequest {
  nodeId: string;
  nodeName: string;
  /** The node's owner scope (tools and credentials must be of it). */
  ownerId: string;
  organizationId: string | null;
  eventId: string;
  config: AiNodeConfig;
  /** The system prompt, then the rendered prompt as the user message. */
  messages: Array<{ role: "system" | "user"; content: string }>;
}

export type AiAnswer =
  | { ok: true; output: unknown; detail: Record<string, unknown> }
  | { ok: false; error: string; detail?: Record<string, unknown> };

/** Runs an AI node's chat loop (model calls and tool calls). Never throws for remote errors. */
export interface AiPort {
  complete(request: AiRequest): Promise<AiAnswer>;
}

export interface EnginePorts {
  transform: TransformPort;
  /** Model calls of AI nodes; absent in dry runs, which record the request instead. */
  ai?: AiPort;
  /** Runs the schema-validator pattern checks too costly for the event loop. */
  patterns: PatternPort;
  rateLimit: RateLimitPort;
  merge: MergePort;
  /** Epoch ms. */
  now: () => number;
  /** `HOOKFLOW_DELAY_SCALE`: multiplies delays, approval timeouts, windows, queue and merge waits. */
  delayScale: number;
  /** Receives each step as it happens (live stream); the result lists them all as well. */
  onStep?: (step: StepDraft) => void;
}

/** Why a parked path goes on. */
export type ParkDecision =
  /** delay: the wait is over; rateLimiter: ask the window again. */
  | { kind: "continue" }
  | { kind: "approved"; auto: boolean }
  | { kind: "rejected"; auto: boolean }
  /** merge: the wait for the other branches ran out. */
  | { kind: "timeout" };

export type RunStart =
  | {
      kind: "webhook";
      payload: unknown;
      /** The JSON text `payload` was parsed from, when at hand (checks its depth at no cost). */
      payloadText?: string;
      payloadFilters: readonly PayloadFilter[];
    }
  | {
      kind: "resume";
      nodeId: string;
      park: ParkKind;
      path: PathState;
      state: Record<string, unknown>;
      decision: ParkDecision;
    };

export interface RunInput {
  eventId: string;
  webhookId: string;
  eventType: string | null;
  /** Identifies the event's current pipeline run (a replay starts another). */
  runId: string;
  graph: PipelineGraph;
  /** `reachableFrom(graph, entry ?? webhookId)`, when the caller has it cached. */
  order?: readonly string[];
  /**
   * The vertex the event enters the graph at when not its webhook: the scheduled workflow whose
   * tick injected it. The webhook's payload filters still apply first.
   */
  entry?: string;
  start: RunStart;
}

export interface MergeSettled {
  nodeId: string;
  result: "done" | "expired";
}

export interface RunResult {
  outcomes: PathOutcome[];
  steps: StepDraft[];
  /**
   * Merge nodes that went on (`done`) or timed out (`expired`) in this run: their other parked
   * arrivals are resolved with them.
   */
  mergesSettled: MergeSettled[];
}
