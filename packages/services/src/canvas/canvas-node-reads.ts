import type { DbExecutor, OwnedRow } from "@hookflow/db";
import type { NodeType, PipelineNode } from "@hookflow/pipeline";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";

/**
 * A record a canvas names: the body `field` naming it, its id, and what it must be: a webhook, a
 * node of the family of a node type, or `node`, a node of any family. A 400 calls it `label`
 * (the type by default).
 */
export interface RecordReference {
  field: string;
  id: string;
  type: NodeType | "node";
  label?: string;
}

/**
 * The node records a freeze reads, as the nodes' own checks and graph reads do (docs/decisions.md,
 * "Node families and canvas"); the api passes those of its node routes.
 */
export interface CanvasNodeReads {
  /**
   * The records named, by id: each must exist, be of the stated type and be visible to `actor`,
   * else a 400 naming the field.
   */
  checkReferencedRecords(
    tx: DbExecutor,
    actor: Actor,
    refs: readonly RecordReference[],
  ): Promise<{ nodes: ReadonlyMap<string, PipelineNode>; webhooks: ReadonlyMap<string, OwnedRow> }>;
  /**
   * The graph of `webhookId` as the worker reads it now (nodes its owner can see, reachable along
   * flow edges, in creation order).
   */
  liveGraphNodes(webhookId: string): Promise<PipelineNode[]>;
}

/** The snapshot writes freeze a graph: they also read node records. */
export interface CanvasWriteContext extends ServiceContext {
  canvasNodeReads: CanvasNodeReads;
}
