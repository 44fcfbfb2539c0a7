import { FAMILIES } from "../families/registry.js";
import type { PipelineNode } from "../nodes.js";
import type { NodeContext, NodeResult } from "./node-result.js";
import { isoTime } from "./step-time.js";
import type {
  EnginePorts,
  MergeSettled,
  PathOutcome,
  PathState,
  RunInput,
  RunResult,
  StepDraft,
} from "./types.js";

/**
 * What one run of the engine records: the steps it emits, what became of each path and the merges
 * it settled, and how a node's result is recorded. Where a passed path goes next is the run's
 * business (`advance`, run-pipeline.ts).
 */
export abstract class RunRecord {
  protected readonly steps: StepDraft[] = [];
  protected readonly outcomes: PathOutcome[] = [];
  protected readonly mergesSettled: MergeSettled[] = [];

  constructor(
    protected readonly input: RunInput,
    protected readonly ports: EnginePorts,
  ) {}

  result(): RunResult {
    return { outcomes: this.outcomes, steps: this.steps, mergesSettled: this.mergesSettled };
  }

  /** Moves a path past `fromId`: on to its flow successors, or to its end. */
  protected abstract advance(fromId: string, path: PathState, forwarded: boolean): void;

  protected emit(step: Omit<StepDraft, "at">): void {
    // One shape for every step (absent fields undefined): spreading conditional fields into
    // objects sent V8 down its slow property paths on this per-node path.
    const full: StepDraft = {
      nodeType: step.nodeType,
      nodeId: step.nodeId,
      nodeName: step.nodeName,
      status: step.status,
      statusCode: step.statusCode,
      durationMs: step.durationMs,
      error: step.error,
      lastPayload: step.lastPayload,
      detail: step.detail,
      at: isoTime(this.ports.now()),
    };
    this.steps.push(full);
    this.ports.onStep?.(full);
  }

  /** Records what a node did with a path and sends the path on (or ends it). */
  protected apply(
    node: PipelineNode,
    path: PathState,
    result: NodeResult,
    startedAt: number,
    parkedAt?: number,
  ): void {
    const nodeType = FAMILIES[node.family].nodeType;
    const base = { nodeType, nodeId: node.id, nodeName: node.name };
    const durationMs = Math.max(0, this.ports.now() - (parkedAt ?? startedAt));
    const where = { pathId: path.id, nodeId: node.id, nodeType };
    switch (result.kind) {
      case "pass":
        this.applyPass(node, result, durationMs);
        return;
      case "blocked":
        this.emit({ ...base, status: "blocked", durationMs, error: result.reason });
        this.outcomes.push({ kind: "blocked", ...where, reason: result.reason });
        return;
      case "failed":
        this.emit({ ...base, status: "error", durationMs, error: result.error });
        this.outcomes.push({
          kind: "failed",
          ...where,
          error: result.error,
          failure: result.failure,
        });
        return;
      case "parked":
        this.outcomes.push({
          kind: "parked",
          ...where,
          park: result.park,
          resumeAt: result.resumeAt,
          payload: path.payload,
          body: path.body,
          state: { parkedAt: parkedAt ?? startedAt, ...result.state },
        });
        return;
      case "joined":
        this.outcomes.push({ kind: "joined", pathId: path.id, nodeId: node.id });
        return;
    }
  }

  /** A node passed the path on: its step, its forwards, then the path's next nodes. */
  private applyPass(
    node: PipelineNode,
    result: Extract<NodeResult, { kind: "pass" }>,
    durationMs: number,
  ): void {
    const nodeType = FAMILIES[node.family].nodeType;
    this.emit({
      nodeType,
      nodeId: node.id,
      nodeName: node.name,
      status: "success",
      durationMs,
      lastPayload: result.changed ? result.path.payload : undefined,
      detail: result.detail,
    });
    const forwards = result.forwards ?? [];
    for (const target of forwards) {
      this.outcomes.push({
        kind: "forward",
        pathId: result.path.id,
        webhookId: target,
        viaNodeId: node.id,
        viaNodeType: nodeType,
        payload: result.path.payload,
        body: result.path.body,
      });
    }
    this.advance(node.id, result.path, forwards.length > 0);
  }

  protected contextOf(node: PipelineNode, path: PathState): NodeContext {
    let announced = false;
    return {
      node,
      path,
      input: this.input,
      ports: this.ports,
      running: () => {
        if (announced) return;
        announced = true;
        this.emit({
          nodeType: FAMILIES[node.family].nodeType,
          nodeId: node.id,
          nodeName: node.name,
          status: "running",
        });
      },
      settleMerge: (result) => {
        this.mergesSettled.push({ nodeId: node.id, result });
      },
    };
  }
}
