import { type DbHandle, findWebhookGraphNodes, type GraphNodeRow } from "@hookflow/db";
import type { Logger } from "@hookflow/observability";
import {
  buildGraph,
  FAMILIES,
  type FamilyKey,
  familyOfId,
  findCycle,
  InputNode,
  type PipelineGraph,
  type PipelineNode,
  reachableFrom,
} from "@hookflow/pipeline";
import { WebhookChanged } from "@hookflow/queue";
import type { Redis } from "ioredis";
import { z } from "zod";

/** A webhook's graph as the worker runs it. */
export interface WebhookGraph {
  graph: PipelineGraph;
  /** Nodes an event of the webhook passes through, in graph order (empty: plain delivery). */
  order: string[];
  /** True when a node keeps state across jobs (merge, rate limiter, delay, approval). */
  stateful: boolean;
  /** Set when the stored graph cannot run (a cycle slipped past the API, say). */
  broken?: string;
}

export interface GraphCache {
  get: (webhookId: string) => Promise<WebhookGraph>;
  start: () => Promise<void>;
  close: () => Promise<void>;
}

const STATEFUL: ReadonlySet<FamilyKey> = new Set(["merge", "rateLimiter", "delay", "approval"]);

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

export async function loadWebhookGraph(
  db: DbHandle,
  webhookId: string,
  logger: Logger,
): Promise<WebhookGraph> {
  const rows = await findWebhookGraphNodes(db, webhookId);
  const nodes = rows.flatMap((row) => toNode(row, logger) ?? []);
  const graph = buildGraph(nodes);
  const order = reachableFrom(graph, webhookId);
  const stateful = order.some((id) => STATEFUL.has(graph.nodes.get(id)?.family as FamilyKey));
  const cycle = findCycle(graph);
  if (cycle) {
    return { graph, order, stateful, broken: `the node graph has a cycle: ${cycle.join(" -> ")}` };
  }
  return { graph, order, stateful };
}

interface Entry {
  value: Promise<WebhookGraph>;
  loadedAt: number;
}

/**
 * Webhook graphs cached in the worker. Any node or canvas write (graph-changed) drops every
 * entry, since a new node anywhere may join a webhook's graph; a webhook change drops that
 * webhook's entry. The TTL bounds staleness if a message is ever missed; concurrent misses share
 * one load, and a load that races an invalidation is not kept.
 */
const GraphChanged = z.object({ nodeId: z.string() });

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function createGraphCache(options: {
  db: DbHandle;
  subscriber: Redis;
  graphChannel: string;
  webhookChannel: string;
  logger: Logger;
  ttlMs?: number;
}): GraphCache {
  const { db, subscriber, logger } = options;
  const ttlMs = options.ttlMs ?? 30_000;
  const entries = new Map<string, Entry>();
  let generation = 0;

  const drop = (webhookId?: string) => {
    generation += 1;
    if (webhookId === undefined) entries.clear();
    else entries.delete(webhookId);
  };

  const onMessage = (channel: string, message: string) => {
    if (channel === options.graphChannel) {
      // Canvas snapshots announce their writes too, but are never part of a live graph.
      const changed = GraphChanged.safeParse(safeJson(message));
      if (changed.success && familyOfId(changed.data.nodeId) === undefined) return;
      drop();
      return;
    }
    if (channel !== options.webhookChannel) return;
    const changed = WebhookChanged.safeParse(safeJson(message));
    if (changed.success) drop(changed.data.webhookId);
    else logger.warn("ignored a malformed webhook-changed message");
  };

  return {
    get: (webhookId) => {
      const now = Date.now();
      const hit = entries.get(webhookId);
      if (hit && now - hit.loadedAt < ttlMs) return hit.value;
      const started = generation;
      const value = loadWebhookGraph(db, webhookId, logger);
      const entry = { value, loadedAt: now };
      entries.set(webhookId, entry);
      value.then(
        () => {
          if (generation !== started && entries.get(webhookId) === entry) entries.delete(webhookId);
        },
        () => {
          if (entries.get(webhookId) === entry) entries.delete(webhookId);
        },
      );
      return value;
    },
    start: async () => {
      subscriber.on("message", onMessage);
      subscriber.on("ready", () => entries.clear());
      await subscriber.subscribe(options.graphChannel, options.webhookChannel);
      entries.clear();
    },
    close: async () => {
      subscriber.off("message", onMessage);
      subscriber.disconnect();
    },
  };
}
