import { type DbHandle, findWebhookGraphNodes, type GraphNodeRow } from "@hookflow/db";
import type { Logger } from "@hookflow/observability";
import {
  buildGraph,
  FAMILIES,
  type FamilyKey,
  familyOfId,
  findCycle,
  InputNode,
  isActionFamily,
  type PipelineGraph,
  type PipelineNode,
  reachableFrom,
} from "@hookflow/pipeline";
import type { ChangeFeed } from "@hookflow/queue";
import { WebhookChanged } from "@hookflow/queue";
import { z } from "zod";
import { createInvalidatingCache, dropOnMissedChanges } from "../cache/invalidating-cache.js";
import { safeJson } from "../cache/safe-json.js";

/** A webhook's graph as the worker runs it. */
export interface WebhookGraph {
  graph: PipelineGraph;
  /** Nodes an event of the webhook passes through, in graph order (empty: plain delivery). */
  order: string[];
  /** True when a node keeps state across jobs (merge, rate limiter, delay, approval). */
  stateful: boolean;
  /** Set when the stored graph cannot run (a cycle slipped past the API, say). */
  broken?: string;
  /**
   * Post-delivery actions linked to the webhook or to a node of its graph, in creation order:
   * they fire after an event's delivery settles (actions/fire-actions.ts), never in the graph.
   */
  actions: readonly PipelineNode[];
  /** Where events enter when not at the webhook (see `graphForEntry`); `order` starts there. */
  entry?: string;
}

export interface GraphCache {
  get: (webhookId: string) => Promise<WebhookGraph>;
}

export const STATEFUL: ReadonlySet<FamilyKey> = new Set([
  "merge",
  "rateLimiter",
  "delay",
  "approval",
]);

function isFamily(value: string): value is FamilyKey {
  return Object.hasOwn(FAMILIES, value);
}

/** A stored row as a typed node; undefined (logged) when it does not parse. */
function toNode(row: GraphNodeRow, logger: Logger): PipelineNode | undefined {
  if (!isFamily(row.family)) {
    logger.warn({ nodeId: row.id, family: row.family }, "ignored a node of an unknown family");
    return undefined;
  }
  const config = FAMILIES[row.family].config.safeParse(row.config);
  const inputs = InputNode.array().safeParse(row.inputNodes);
  if (!config.success || !inputs.success) {
    logger.warn(
      { nodeId: row.id, family: row.family },
      "ignored a node whose config does not parse",
    );
    return undefined;
  }
  return {
    id: row.id,
    family: row.family,
    name: row.name,
    ownerId: row.ownerId,
    organizationId: row.organizationId,
    inputNodes: inputs.data,
    config: config.data,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  } as PipelineNode;
}

async function loadWebhookGraph(
  db: DbHandle,
  webhookId: string,
  logger: Logger,
): Promise<WebhookGraph> {
  const rows = await findWebhookGraphNodes(db, webhookId);
  const nodes = rows.flatMap((row) => toNode(row, logger) ?? []);
  const graph = buildGraph(nodes);
  const actions = nodes.filter((node) => isActionFamily(node.family));
  const order = reachableFrom(graph, webhookId);
  const stateful = order.some((id) => STATEFUL.has(graph.nodes.get(id)?.family as FamilyKey));
  const cycle = findCycle(graph);
  if (cycle) {
    return {
      graph,
      order,
      stateful,
      actions,
      broken: `the node graph has a cycle: ${cycle.join(" -> ")}`,
    };
  }
  return { graph, order, stateful, actions };
}

/** A graph-changed message names the node (or canvas snapshot) that was written. */
const GraphChanged = z.object({ nodeId: z.string() });

/**
 * Webhook graphs cached in the worker. Any node write (graph-changed, one message per write)
 * drops every entry, since a new node anywhere may join a webhook's graph; a message naming no
 * node family (a canvas snapshot, from an api of an older version) is ignored. A webhook change
 * drops that webhook's entry.
 */
export function createGraphCache(options: {
  db: DbHandle;
  feed: ChangeFeed;
  graphChannel: string;
  webhookChannel: string;
  logger: Logger;
  ttlMs?: number;
}): GraphCache {
  const { db, logger } = options;
  const cache = createInvalidatingCache<WebhookGraph>({
    load: (webhookId) => loadWebhookGraph(db, webhookId, logger),
    ttlMs: options.ttlMs ?? 30_000,
  });
  options.feed.on(options.graphChannel, (message) => {
    const changed = GraphChanged.safeParse(safeJson(message));
    if (changed.success && familyOfId(changed.data.nodeId) === undefined) return;
    cache.drop();
  });
  options.feed.on(options.webhookChannel, (message) => {
    const changed = WebhookChanged.safeParse(safeJson(message));
    if (changed.success) cache.drop(changed.data.webhookId);
  });
  dropOnMissedChanges(options.feed, cache);
  return { get: cache.get };
}
