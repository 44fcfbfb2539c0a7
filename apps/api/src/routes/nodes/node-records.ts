/**
 * The node records' helpers now live in @hookflow/services (nodes/node-records.ts); routes of
 * other resources still import them from here until they call verbs of their own.
 */
export { loadVisibleNode, publishGraphChanged, toPipelineNode } from "@hookflow/services";
