import type { ProcessingFamilyKey } from "../../families/registry.js";
import type { NodeExecutor } from "../node-result.js";
import { aiNodeExecutor } from "./ai-node.js";
import {
  approvalExecutor,
  delayExecutor,
  filterExecutor,
  routerExecutor,
  schemaValidatorExecutor,
  transformExecutor,
} from "./basic-nodes.js";
import { mergeExecutor } from "./merge-node.js";
import { rateLimiterExecutor } from "./rate-limiter-node.js";

/**
 * One executor per processing family: adding one is its schema (registry.ts) and an entry here.
 * Post-delivery actions never run in the graph; the worker runs them after delivery.
 */
export const EXECUTORS: { [F in ProcessingFamilyKey]: NodeExecutor<F> } = {
  router: routerExecutor,
  filter: filterExecutor,
  transform: transformExecutor,
  schemaValidator: schemaValidatorExecutor,
  delay: delayExecutor,
  merge: mergeExecutor,
  approval: approvalExecutor,
  rateLimiter: rateLimiterExecutor,
  // A source: its ticks enter a pipeline at the nodes it feeds, so nothing reaches it.
  scheduledWorkflow: { run: async ({ path }) => ({ kind: "pass", path }) },
  // A flow link forwards the source's output to its webhook as a child event; the gate checks
  // consent, rights and the forwarding budget before the event exists.
  flowLink: {
    run: async ({ node, path }) => ({ kind: "pass", path, forwards: [node.config.webhookId] }),
  },
  aiNode: aiNodeExecutor,
};

export { MERGE_TIMEOUT_SECONDS } from "./merge-node.js";
