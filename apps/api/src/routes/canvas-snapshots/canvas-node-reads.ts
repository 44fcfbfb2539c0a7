import type { CanvasNodeReads, CanvasWriteContext } from "@hookflow/services";
import type { ApiServices } from "../../services.js";
import { checkReferencedRecords } from "../nodes/check-node-references.js";
import { liveGraphNodes } from "../nodes/live-graph.js";
import { toPipelineNode } from "../nodes/node-records.js";

/** The node records a snapshot's freeze reads, through the node routes' own checks and reads. */
function canvasNodeReads(services: ApiServices): CanvasNodeReads {
  return {
    async checkReferencedRecords(tx, actor, refs) {
      const records = await checkReferencedRecords(tx, actor, null, refs);
      return {
        webhooks: records.webhooks,
        nodes: new Map([...records.nodes].map(([id, row]) => [id, toPipelineNode(row)])),
      };
    },
    liveGraphNodes: (webhookId) => liveGraphNodes(services.db, webhookId),
  };
}

/** The context of the snapshot writes: the api's services and the node reads a freeze needs. */
export function canvasWriteContext(services: ApiServices): CanvasWriteContext {
  return { ...services, canvasNodeReads: canvasNodeReads(services) };
}
