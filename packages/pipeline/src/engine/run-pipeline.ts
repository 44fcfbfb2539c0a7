import { matchesAll } from "@hookflow/domain";
import { FAMILIES, type ProcessingFamilyKey } from "../families/registry.js";
import { outgoingEdges } from "../graph/build-graph.js";
import { reachableFrom } from "../graph/graph-order.js";
import type { PipelineNode } from "../nodes.js";
import {
  jsonTextNestsDeeperThan,
  MAX_PAYLOAD_DEPTH,
  valueNestsDeeperThan,
} from "../payload-depth.js";
import { EXECUTORS } from "./families/index.js";
import type { NodeContext, NodeExecutor, NodeResult } from "./node-result.js";
import type {
  EnginePorts,
  MergeSettled,
  PathOutcome,
  PathState,
  RunInput,
  RunResult,
  RunStart,
  StepDraft,
} from "./types.js";

/** The ISO text of a time in ms; steps of one millisecond (most of a run's) share one. */
let lastTimeMs = Number.NaN;
let lastTimeIso = "";
function isoTime(ms: number): string {
  if (ms !== lastTimeMs) {
    lastTimeMs = ms;
    lastTimeIso = new Date(ms).toISOString();
  }
  return lastTimeIso;
}

/** Node visits one run may make; past it the remaining paths fail (a graph exploding in paths). */
export const MAX_NODE_VISITS = 1000;

interface Work {
  nodeId: string;
  path: PathState;
  rank: number;
}

/** Whether the webhook's payload nests past MAX_PAYLOAD_DEPTH (its text, when given, is cheaper). */
function nestsTooDeep(start: Extract<RunStart, { kind: "webhook" }>): boolean {
  if (typeof start.payload !== "object" || start.payload === null) return false;
  return start.payloadText === undefined
    ? valueNestsDeeperThan(start.payload, MAX_PAYLOAD_DEPTH)
    : jsonTextNestsDeeperThan(start.payloadText, MAX_PAYLOAD_DEPTH);
}

function parkedAtOf(state: Record<string, unknown>): number | undefined {
  return typeof state.parkedAt === "number" ? state.parkedAt : undefined;
}

/**
 * Runs an event through the graph reachable from its webhook (docs/decisions.md, "Node families and canvas"), with no
 * I/O of its own: every side effect goes through `ports`. It starts at the webhook (payload
 * filters, then every path in graph order) or resumes a parked path, and returns what became of
 * each path: deliver, forward (a new event in another webhook), blocked, failed, parked or joined
 * (absorbed by a merge), plus the steps it emitted. A fan-out splits a path; a node reached by
 * several paths runs once per path; only a merge node joins paths.
 */
export async function runPipeline(input: RunInput, ports: EnginePorts): Promise<RunResult> {
  const { graph, webhookId } = input;
  const entry = input.entry ?? webhookId;
  const order = input.order ?? reachableFrom(graph, entry);
  const rank = new Map(order.map((id, index) => [id, index]));
  const steps: StepDraft[] = [];
  const outcomes: PathOutcome[] = [];
  const mergesSettled: MergeSettled[] = [];
  const queue: Work[] = [];
  let visits = 0;

  const emit = (step: Omit<StepDraft, "at">) => {
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
      at: isoTime(ports.now()),
    };
    steps.push(full);
    ports.onStep?.(full);
  };

  const enqueue = (nodeId: string, path: PathState) => {
    const work = { nodeId, path, rank: rank.get(nodeId) ?? 0 };
    let at = queue.length;
    while (at > 0 && (queue[at - 1] as Work).rank > work.rank) at -= 1;
    queue.splice(at, 0, work);
  };

  /**
   * Moves a path past `fromId`: on to its flow successors, or to its end. Flow links hanging off
   * the vertex take branches of their own and leave the path as it would be without them (a
   * source whose only successor is a link still delivers).
   */
  const advance = (fromId: string, path: PathState, forwarded: boolean) => {
    const successors = outgoingEdges(graph, fromId)
      .filter((edge) => edge.kind === "flow" && rank.has(edge.to))
      .map((edge) => edge.to);
    const isLink = (id: string) => graph.nodes.get(id)?.family === "flowLink";
    const next = successors.filter((id) => !isLink(id));
    for (const id of successors) {
      if (isLink(id)) enqueue(id, { ...path, id: `${path.id}>${id}` });
    }
    if (next.length === 0) {
      // A path that ends after forwarding has gone where it was sent; otherwise it delivers.
      if (!forwarded) {
        outcomes.push({ kind: "deliver", pathId: path.id, payload: path.payload, body: path.body });
      }
      return;
    }
    for (const id of next) {
      enqueue(id, next.length === 1 ? path : { ...path, id: `${path.id}>${id}` });
    }
  };

  const apply = (
    node: PipelineNode,
    path: PathState,
    result: NodeResult,
    startedAt: number,
    parkedAt?: number,
  ) => {
    const nodeType = FAMILIES[node.family].nodeType;
    const base = { nodeType, nodeId: node.id, nodeName: node.name };
    const durationMs = Math.max(0, ports.now() - (parkedAt ?? startedAt));
    switch (result.kind) {
      case "pass": {
        emit({
          ...base,
          status: "success",
          durationMs,
          lastPayload: result.changed ? result.path.payload : undefined,
          detail: result.detail,
        });
        const forwards = result.forwards ?? [];
        for (const target of forwards) {
          outcomes.push({
            kind: "forward",
            pathId: result.path.id,
            webhookId: target,
            viaNodeId: node.id,
            viaNodeType: nodeType,
            payload: result.path.payload,
            body: result.path.body,
          });
        }
        advance(node.id, result.path, forwards.length > 0);
        return;
      }
      case "blocked":
        emit({ ...base, status: "blocked", durationMs, error: result.reason });
        outcomes.push({
          kind: "blocked",
          pathId: path.id,
          nodeId: node.id,
          nodeType,
          reason: result.reason,
        });
        return;
      case "failed":
        emit({ ...base, status: "error", durationMs, error: result.error });
        outcomes.push({
          kind: "failed",
          pathId: path.id,
          nodeId: node.id,
          nodeType,
          error: result.error,
          failure: result.failure,
        });
        return;
      case "parked":
        outcomes.push({
          kind: "parked",
          pathId: path.id,
          nodeId: node.id,
          nodeType,
          park: result.park,
          resumeAt: result.resumeAt,
          payload: path.payload,
          body: path.body,
          state: { parkedAt: parkedAt ?? startedAt, ...result.state },
        });
        return;
      case "joined":
        outcomes.push({ kind: "joined", pathId: path.id, nodeId: node.id });
        return;
    }
  };

  const contextOf = (node: PipelineNode, path: PathState): NodeContext => {
    let announced = false;
    return {
      node,
      path,
      input,
      ports,
      running: () => {
        if (announced) return;
        announced = true;
        emit({
          nodeType: FAMILIES[node.family].nodeType,
          nodeId: node.id,
          nodeName: node.name,
          status: "running",
        });
      },
      settleMerge: (result) => {
        mergesSettled.push({ nodeId: node.id, result });
      },
    };
  };

  const executorOf = (node: PipelineNode) =>
    EXECUTORS[node.family as ProcessingFamilyKey] as NodeExecutor;

  const start = input.start;
  if (start.kind === "webhook") {
    if (start.payloadFilters.length > 0) {
      const base = { nodeType: "webhook", nodeId: webhookId, nodeName: "payload filters" };
      emit({ ...base, status: "running" });
      if (!matchesAll(start.payload, start.payloadFilters)) {
        const reason = "payload filters did not match";
        emit({ ...base, status: "blocked", durationMs: 0, error: reason });
        outcomes.push({
          kind: "blocked",
          pathId: "root",
          nodeId: webhookId,
          nodeType: "webhook",
          reason,
        });
        return { outcomes, steps, mergesSettled };
      }
      emit({ ...base, status: "success", durationMs: 0 });
    }
    if (order.length > 0 && nestsTooDeep(start)) {
      // The nodes would serialize it somewhere (see payload-depth): the event fails here, as a
      // payload that breaks a validator's contract would. Payload filters only read paths.
      const base = { nodeType: "webhook" as const, nodeId: webhookId, nodeName: "payload" };
      const error = `the payload nests more than ${MAX_PAYLOAD_DEPTH} levels deep`;
      emit({ ...base, status: "running" });
      emit({ ...base, status: "error", durationMs: 0, error });
      outcomes.push({
        kind: "failed",
        pathId: "root",
        nodeId: webhookId,
        nodeType: "webhook",
        error,
        failure: "validation",
      });
      return { outcomes, steps, mergesSettled };
    }
    advance(entry, { id: "root", payload: start.payload, body: null }, false);
  } else {
    const node = graph.nodes.get(start.nodeId);
    const startedAt = ports.now();
    if (!node || !rank.has(start.nodeId)) {
      const error = `node ${start.nodeId} is no longer on this webhook's graph`;
      outcomes.push({
        kind: "failed",
        pathId: start.path.id,
        nodeId: start.nodeId,
        nodeType: node ? FAMILIES[node.family].nodeType : start.park,
        error,
        failure: "graph",
      });
      emit({
        nodeType: node ? FAMILIES[node.family].nodeType : start.park,
        nodeId: start.nodeId,
        status: "error",
        error,
      });
    } else {
      const executor = executorOf(node);
      const ctx = contextOf(node, start.path);
      const result = executor.resume
        ? await executor.resume(ctx, start.decision, start.state)
        : ({
            kind: "failed",
            error: `${node.family} nodes do not park`,
            failure: "graph",
          } as const);
      // A path parked again keeps the time it first parked (the step's duration covers it all).
      const parkedAt = parkedAtOf(start.state);
      if (result.kind === "parked") result.state = { ...start.state, ...result.state };
      apply(node, start.path, result, startedAt, parkedAt);
    }
  }

  while (queue.length > 0) {
    const work = queue.shift() as Work;
    const node = graph.nodes.get(work.nodeId) as PipelineNode;
    visits += 1;
    if (visits > MAX_NODE_VISITS) {
      const error = `too many paths: more than ${MAX_NODE_VISITS} node visits in one run`;
      const nodeType = FAMILIES[node.family].nodeType;
      emit({ nodeType, nodeId: node.id, nodeName: node.name, status: "error", error });
      outcomes.push({
        kind: "failed",
        pathId: work.path.id,
        nodeId: node.id,
        nodeType,
        error,
        failure: "graph",
      });
      continue;
    }
    const executor = executorOf(node);
    const ctx = contextOf(node, work.path);
    const startedAt = ports.now();
    if (!executor.announces) ctx.running();
    const result = await executor.run(ctx);
    apply(node, work.path, result, startedAt);
  }
  return { outcomes, steps, mergesSettled };
}
