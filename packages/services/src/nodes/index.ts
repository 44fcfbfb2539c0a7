export { checkReferencedRecords, type RecordReference } from "./check-node-references.js";
export { createNode } from "./create-node.js";
export { deleteNode } from "./delete-node.js";
export { detachReferences } from "./detach-references.js";
export { getNode } from "./get-node.js";
export { listNodes } from "./list-nodes.js";
export { liveGraphNodes, liveWebhookGraph, reachableNodesOf } from "./live-graph.js";
export {
  familyLabel,
  loadVisibleNode,
  publishGraphChanged,
  toPipelineNode,
} from "./node-records.js";
export type { NodeWriteContext } from "./node-write-context.js";
export { updateNode } from "./update-node.js";
