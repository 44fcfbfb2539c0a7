import { findPipelineNodeById, type PipelineNodeRow } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import {
  canonicalNodeType,
  FAMILIES,
  FAMILY_KEYS,
  type FamilyConfig,
  type FamilyKey,
  type InputNode,
  type NodeInput,
  type PipelineNode,
} from "@hookflow/pipeline";
import { assertVisible } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";

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
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  key: FamilyKey,
  id: string,
): Promise<PipelineNode> {
  const row = await findPipelineNodeById(ctx.db.db, id);
  const found = row && row.family === key ? row : undefined;
  return toPipelineNode(assertVisible(actor, found, capitalizeFirst(familyLabel(key))));
}

/**
 * `filter node`: a family's record in words (singular, lower case), from its path. The api's
 * OpenAPI document names the family's routes and schemas after it; errors name the record by it.
 */
export function familyLabel(key: FamilyKey): string {
  return FAMILIES[key].path.replace(/s$/, "").replaceAll("-", " ");
}

function capitalizeFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Thrown inside a write transaction when the node vanished between the check and the lock. */
export function nodeGone(key: FamilyKey): NotFoundError {
  return new NotFoundError(`${capitalizeFirst(familyLabel(key))} not found`);
}

/**
 * Tells every worker that a write changed the node graph, so cached webhook graphs are dropped.
 * A worker drops every cached graph on any such message (a new node anywhere may join a
 * webhook's graph), so a write publishes one message however many nodes it changed, naming the
 * first (the worker reads `{nodeId}`); a write that changed no node publishes nothing. The write
 * is committed; a Redis failure is logged (worker caches also expire).
 */
export async function publishGraphChanged(
  ctx: Pick<ServiceContext, "redis" | "keys" | "logger">,
  nodeIds: readonly string[],
): Promise<void> {
  const [nodeId] = nodeIds;
  if (nodeId === undefined) return;
  try {
    await ctx.redis.publish(ctx.keys.graphChangedChannel, JSON.stringify({ nodeId }));
  } catch (error) {
    ctx.logger.error({ err: error, nodeIds }, "could not publish graph change");
  }
}
