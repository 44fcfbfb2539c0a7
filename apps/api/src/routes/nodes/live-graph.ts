/** A webhook's live graph is read in @hookflow/services (nodes/live-graph.ts). */
export { liveGraphNodes, liveWebhookGraph, reachableNodesOf } from "@hookflow/services";
