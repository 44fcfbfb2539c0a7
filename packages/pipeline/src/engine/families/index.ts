import type { FamilyKey } from "../../families/registry.js";
import type { NodeExecutor } from "../node-result.js";
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

/** One executor per family: adding a family is its schema (registry.ts) and an entry here. */
export const EXECUTORS: { [F in FamilyKey]: NodeExecutor<F> } = {
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
};

export { MERGE_TIMEOUT_SECONDS } from "./merge-node.js";
