import { findPipelineNodeById, type PipelineNodeRow } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import {
  canonicalNodeType,
  FAMILY_KEYS,
  type FamilyConfig,
  type FamilyKey,
  type InputNode,
  type NodeInput,
  type PipelineNode,
} from "@hookflow/pipeline";
import type { Actor } from "@hookflow/services";
import { assertVisible } from "@hookflow/services";
import type { ApiServices } from "../../services.js";
import type { ForwardLimits } from "./check-forward-limits.js";
import { familyDocs } from "./family-docs.js";

function familyKeyOf(row: PipelineNodeRow): FamilyKey {
  const key = FAMILY_KEYS.find((k) => k === row.family);
  if (!key) throw new Error(`pipeline node ${row.id} has an unknown family: ${row.family}`);
  return key;
}

function storedInputNodes(row: PipelineNodeRow): InputNode[] {
  return row.inputNodes.map((input) => {
    const nodeType = canonicalNodeType(input.nodeType);
    if (!nodeType) throw new Error(`pipeline node ${row.id} has an unknown input node type`);
    return { nodeType, nodeId: input.nodeId };
  });
}

/** A stored row as the pipeline sees it; the config was validated by its family on write. */
export function toPipelineNode(row: PipelineNodeRow): PipelineNode {
  return {
    id: row.id,
    family: familyKeyOf(row),
    name: row.name,
    ownerId: row.ownerId,
    organizationId: row.organizationId,
    inputNodes: storedInputNodes(row),
    config: row.config as FamilyConfig<FamilyKey>,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The editable part of a node, which `parseUpdateNode` merges a PATCH into. */
export function inputOfNode<F extends FamilyKey>(node: PipelineNode<F>): NodeInput<F> {
  return { name: node.name, inputNodes: node.inputNodes, config: node.config };
}

/**
 * The node of family `key` with this id if the actor may see it: 404 when there is none (a node
 * of another family is none), 403 when it belongs to someone else.
 */
export async function loadVisibleNode(
  services: ApiServices,
  actor: Actor,
  key: FamilyKey,
  id: string,
): Promise<PipelineNode> {
  const row = await findPipelineNodeById(services.db.db, id);
  const label = familyDocs(key).label;
  const found = row && row.family === key ? row : undefined;
  return toPipelineNode(assertVisible(actor, found, capitalizeFirst(label)));
}

function capitalizeFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The operator's forwarding limits, as the write-time check takes them. */
export function forwardLimitsOf(services: ApiServices): ForwardLimits {
  return {
    maxDescendants: services.config.graphMaxDescendants,
    maxDepth: services.config.graphMaxForwardDepth,
  };
}

/** Thrown inside a write transaction when the node vanished between the check and the lock. */
export function nodeGone(key: FamilyKey): NotFoundError {
  return new NotFoundError(`${capitalizeFirst(familyDocs(key).label)} not found`);
}

/**
 * Tells every worker that a write changed the node graph, so cached webhook graphs are dropped.
 * A worker drops every cached graph on any such message (a new node anywhere may join a
 * webhook's graph), so a write publishes one message however many nodes it changed, naming the
 * first (the worker reads `{nodeId}`); a write that changed no node publishes nothing. The write
 * is committed; a Redis failure is logged (worker caches also expire).
 */
export async function publishGraphChanged(
  services: ApiServices,
  nodeIds: readonly string[],
): Promise<void> {
  const [nodeId] = nodeIds;
  if (nodeId === undefined) return;
  try {
    await services.redis.publish(services.keys.graphChangedChannel, JSON.stringify({ nodeId }));
  } catch (error) {
    services.logger.error({ err: error, nodeIds }, "could not publish graph change");
  }
}
