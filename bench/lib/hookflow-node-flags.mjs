// The V8 flags Hookflow's processes run with in production (apps/cli/src/node-flags.ts), so the
// benches measure the processes as deployed: the worker role with its own.
import { NODE_FLAGS, WORKER_NODE_FLAGS } from "../../apps/cli/dist/index.js";

export const HOOKFLOW_NODE_FLAGS = [...NODE_FLAGS];
export const HOOKFLOW_WORKER_NODE_FLAGS = [...WORKER_NODE_FLAGS];
