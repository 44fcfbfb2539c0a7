// The frozen graph lives with the canvas verbs (@hookflow/services); the time-travel route reads
// a snapshot's copy through these.
export { parseFrozenGraph, thawGraph } from "@hookflow/services";
