import { type DbExecutor, findGraphWebhooks, findPipelineNodesOfScope } from "@hookflow/db";
import { ConflictError, ownerScopeOf, sameOwnerScope, ValidationError } from "@hookflow/domain";
import {
  buildGraph,
  type ForwardReach,
  measureForwardReach,
  outputReferencesOf,
  type PipelineNode,
} from "@hookflow/pipeline";
import { toPipelineNode } from "./node-records.js";

/** The operator's forwarding limits (`GRAPH_MAX_DESCENDANTS`, `GRAPH_MAX_FORWARD_DEPTH`). */
export interface ForwardLimits {
  maxDescendants: number;
  maxDepth: number;
}

const LIMITS = ["depth", "descendants"] as const;
type Limit = (typeof LIMITS)[number];

interface Breach {
  webhookId: string;
  limit: Limit;
}

/** The node with no forward outputs: what its scope would spread like without its own forwards. */
function withoutForwards(node: PipelineNode): PipelineNode {
  if (node.family === "router") return { ...node, config: { routes: [] } } as PipelineNode;
  if (node.family === "rateLimiter") {
    return { ...node, config: { ...node.config, outputWebhookIds: [] } } as PipelineNode;
  }
  // A flow link's one forward, pointed at no webhook (no id is forwardable): it spreads nothing.
  if (node.family === "flowLink") {
    return { ...node, config: { ...node.config, webhookId: "" } } as PipelineNode;
  }
  return node;
}

/** Whether `now` breaks the limit further than `before` did (a stored breach stays editable). */
function worse(now: ForwardReach, before: ForwardReach, limit: Limit, limits: ForwardLimits) {
  return limit === "depth"
    ? now.depth > limits.maxDepth && now.depth > before.depth
    : now.descendants > limits.maxDescendants && now.descendants > before.descendants;
}

function breachMessage(breach: Breach, limits: ForwardLimits): string {
  return breach.limit === "depth"
    ? `Forwarding from webhook ${breach.webhookId} would nest more than ${limits.maxDepth} ` +
        `levels deep (GRAPH_MAX_FORWARD_DEPTH: at most ${limits.maxDepth})`
    : `One event of webhook ${breach.webhookId} could create more than ` +
        `${limits.maxDescendants} events through forwards (GRAPH_MAX_DESCENDANTS: at most ` +
        `${limits.maxDescendants} events descend from one event)`;
}

/** Every webhook the nodes name: where events can enter, and where forwards lead. */
function webhooksNamed(nodes: readonly PipelineNode[]): string[] {
  const graph = buildGraph(nodes);
  return graph.vertices.filter((id) => !graph.nodes.has(id));
}

/**
 * Refuses a node write that would let one event of a webhook of the node's scope spread further
 * through forwards than the operator allows: more descendant events than `maxDescendants`, or
 * forwards nested deeper than `maxDepth`. Only what the write makes worse counts (a graph stored
 * before the limits stays editable). 400 naming the node's forward field when its own forwards
 * break the limit; 409 when the write only connects existing forwarding nodes that do. Runs
 * under the scope's graph write lock: a graph joins nodes of one scope only, and forwards to
 * other scopes are blocked at run time, so the scope's nodes are all that count.
 */
export async function checkForwardLimits(
  db: DbExecutor,
  written: PipelineNode,
  limits: ForwardLimits,
): Promise<void> {
  const stored = (await findPipelineNodesOfScope(db, ownerScopeOf(written))).map(toPipelineNode);
  const others = stored.filter((node) => node.id !== written.id);
  const after = [...others, written];
  const ids = webhooksNamed(after);
  const inScope = new Set(
    (await findGraphWebhooks(db, ids)).filter((w) => sameOwnerScope(w, written)).map((w) => w.id),
  );
  const measure = (nodes: readonly PipelineNode[]) =>
    measureForwardReach({ nodes, forwardable: (id) => inScope.has(id), ...limits });
  const reachBefore = measure(stored);
  const reachAfter = measure(after);
  let breach: Breach | undefined;
  // Events enter through the scope's own webhooks only: a graph never runs another scope's.
  for (const webhookId of ids.filter((id) => inScope.has(id))) {
    const limit = LIMITS.find((l) =>
      worse(reachAfter(webhookId), reachBefore(webhookId), l, limits),
    );
    if (limit) {
      breach = { webhookId, limit };
      break;
    }
  }
  if (!breach) return;
  const message = breachMessage(breach, limits);
  // Without its own forwards, would the write still make it worse? Then it only connects.
  const alone = measure([...others, withoutForwards(written)])(breach.webhookId);
  const [output] = outputReferencesOf(written.family, written.config).filter(
    (ref) => ref.nodeType === "webhook",
  );
  if (output && !worse(alone, reachBefore(breach.webhookId), breach.limit, limits)) {
    throw new ValidationError(`${output.field.split(".")[0]}: ${message}`);
  }
  throw new ConflictError(`${message}; the nodes this write connects already forward that far`);
}
