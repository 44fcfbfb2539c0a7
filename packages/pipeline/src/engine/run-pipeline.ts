import { FAMILIES, type ProcessingFamilyKey } from "../families/registry.js";
import { outgoingEdges } from "../graph/build-graph.js";
import { reachableFrom } from "../graph/graph-order.js";
import type { PipelineNode } from "../nodes.js";
import { EXECUTORS } from "./families/index.js";
import type { NodeExecutor } from "./node-result.js";
import { RunRecord } from "./run-record.js";
import type { EnginePorts, PathState, RunInput, RunResult, RunStart } from "./types.js";
import { checkWebhookEntry } from "./webhook-entry.js";
import { WorkQueue } from "./work-queue.js";

/** Node visits one run may make; past it the remaining paths fail (a graph exploding in paths). */
export const MAX_NODE_VISITS = 1000;

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
  const run = new PipelineRun(input, ports);
  const start = input.start;
  if (start.kind === "webhook") run.enterAtWebhook(start);
  else await run.resumeParked(start);
  await run.drain();
  return run.result();
}

type WebhookStart = Extract<RunStart, { kind: "webhook" }>;
type ParkedStart = Extract<RunStart, { kind: "resume" }>;

/**
 * One run of the engine: its work queue of paths, in graph order; the steps it emits and what
 * became of the paths are recorded by `RunRecord`.
 */
class PipelineRun extends RunRecord {
  private readonly rank: Map<string, number>;
  private readonly queue: WorkQueue;
  private readonly entry: string;
  private visits = 0;

  constructor(input: RunInput, ports: EnginePorts) {
    super(input, ports);
    this.entry = input.entry ?? input.webhookId;
    const order = input.order ?? reachableFrom(input.graph, this.entry);
    this.rank = new Map(order.map((id, index) => [id, index]));
    this.queue = new WorkQueue(this.rank);
  }

  /** A fresh event: the webhook's payload filters and depth check, then its graph in order. */
  enterAtWebhook(start: WebhookStart): void {
    const { steps, stop } = checkWebhookEntry(start, this.input.webhookId, this.rank.size > 0);
    for (const step of steps) this.emit(step);
    if (stop) this.outcomes.push(stop);
    else this.advance(this.entry, { id: "root", payload: start.payload, body: null }, false);
  }

  /** A parked path comes back with its decision (approval, delay, merge, rate limit). */
  async resumeParked(start: ParkedStart): Promise<void> {
    const node = this.input.graph.nodes.get(start.nodeId);
    const startedAt = this.ports.now();
    if (!node || !this.rank.has(start.nodeId)) {
      const nodeType = node ? FAMILIES[node.family].nodeType : start.park;
      const error = `node ${start.nodeId} is no longer on this webhook's graph`;
      this.outcomes.push({
        kind: "failed",
        pathId: start.path.id,
        nodeId: start.nodeId,
        nodeType,
        error,
        failure: "graph",
      });
      this.emit({ nodeType, nodeId: start.nodeId, status: "error", error });
      return;
    }
    const executor = executorOf(node);
    const ctx = this.contextOf(node, start.path);
    const result = executor.resume
      ? await executor.resume(ctx, start.decision, start.state)
      : ({ kind: "failed", error: `${node.family} nodes do not park`, failure: "graph" } as const);
    // A path parked again keeps the time it first parked (the step's duration covers it all).
    const parkedAt = parkedAtOf(start.state);
    if (result.kind === "parked") result.state = { ...start.state, ...result.state };
    this.apply(node, start.path, result, startedAt, parkedAt);
  }

  /** Runs queued paths in graph order until none is left (or the visit budget is spent). */
  async drain(): Promise<void> {
    for (let work = this.queue.shift(); work; work = this.queue.shift()) {
      const node = this.input.graph.nodes.get(work.nodeId) as PipelineNode;
      this.visits += 1;
      if (this.visits > MAX_NODE_VISITS) {
        this.failTooManyVisits(node, work.path);
        continue;
      }
      const executor = executorOf(node);
      const ctx = this.contextOf(node, work.path);
      const startedAt = this.ports.now();
      if (!executor.announces) ctx.running();
      const result = await executor.run(ctx);
      this.apply(node, work.path, result, startedAt);
    }
  }

  private failTooManyVisits(node: PipelineNode, path: PathState): void {
    const error = `too many paths: more than ${MAX_NODE_VISITS} node visits in one run`;
    const nodeType = FAMILIES[node.family].nodeType;
    this.emit({ nodeType, nodeId: node.id, nodeName: node.name, status: "error", error });
    this.outcomes.push({
      kind: "failed",
      pathId: path.id,
      nodeId: node.id,
      nodeType,
      error,
      failure: "graph",
    });
  }

  /**
   * Moves a path past `fromId`: on to its flow successors, or to its end. Flow links hanging off
   * the vertex take branches of their own and leave the path as it would be without them (a
   * source whose only successor is a link still delivers).
   */
  protected override advance(fromId: string, path: PathState, forwarded: boolean): void {
    const graph = this.input.graph;
    const successors = outgoingEdges(graph, fromId)
      .filter((edge) => edge.kind === "flow" && this.rank.has(edge.to))
      .map((edge) => edge.to);
    const isLink = (id: string) => graph.nodes.get(id)?.family === "flowLink";
    const next = successors.filter((id) => !isLink(id));
    for (const id of successors) {
      if (isLink(id)) this.queue.push(id, { ...path, id: `${path.id}>${id}` });
    }
    if (next.length === 0) {
      // A path that ends after forwarding has gone where it was sent; otherwise it delivers.
      if (!forwarded) {
        this.outcomes.push({
          kind: "deliver",
          pathId: path.id,
          payload: path.payload,
          body: path.body,
        });
      }
      return;
    }
    for (const id of next) {
      this.queue.push(id, next.length === 1 ? path : { ...path, id: `${path.id}>${id}` });
    }
  }
}

const executorOf = (node: PipelineNode) =>
  EXECUTORS[node.family as ProcessingFamilyKey] as NodeExecutor;
