import type { FamilyKey } from "../families/registry.js";
import type { PipelineNode } from "../nodes.js";
import type {
  EnginePorts,
  FailureKind,
  ParkDecision,
  ParkKind,
  PathState,
  RunInput,
} from "./types.js";

/** What one node did with one path. */
export type NodeResult =
  | {
      kind: "pass";
      path: PathState;
      /** Webhooks this node forwards the path's payload to as new events. */
      forwards?: string[];
      /** True when the node changed the payload (the step then shows it as `lastPayload`). */
      changed?: boolean;
      /** What the node's step records besides the payload (an AI node's usage and tool calls). */
      detail?: Record<string, unknown>;
    }
  | { kind: "blocked"; reason: string }
  | { kind: "failed"; error: string; failure: FailureKind }
  | { kind: "parked"; park: ParkKind; resumeAt: number; state: Record<string, unknown> }
  | { kind: "joined" };

export interface NodeContext<F extends FamilyKey = FamilyKey> {
  node: PipelineNode<F>;
  path: PathState;
  input: RunInput;
  ports: EnginePorts;
  /** Emits the node's `running` step (families that announce themselves call it). */
  running: () => void;
  /** Records that a merge node went on or expired in this run. */
  settleMerge: (result: "done" | "expired") => void;
}

/**
 * How the engine runs one family. `resume` continues a path parked at the node. Families with
 * `announces` emit their own `running` step (a merge announces only its first arrival); for the
 * others the engine emits it before `run`.
 */
export interface NodeExecutor<F extends FamilyKey = FamilyKey> {
  announces?: boolean;
  run: (ctx: NodeContext<F>) => Promise<NodeResult>;
  resume?: (
    ctx: NodeContext<F>,
    decision: ParkDecision,
    state: Record<string, unknown>,
  ) => Promise<NodeResult>;
}

/** Milliseconds of a wait configured in seconds, with `HOOKFLOW_DELAY_SCALE` applied. */
export function scaledMs(seconds: number, delayScale: number): number {
  return Math.max(1, Math.round(seconds * 1000 * delayScale));
}
