// The V8 flags Hookflow's processes run with in production (apps/cli/src/node-flags.ts), so the
// benches measure the processes as deployed.
import { NODE_FLAGS } from "../../apps/cli/dist/index.js";

export const HOOKFLOW_NODE_FLAGS = [...NODE_FLAGS];
