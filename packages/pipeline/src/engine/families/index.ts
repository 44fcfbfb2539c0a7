import type { ProcessingFamilyKey } from "../../families/registry.js";
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
};

export { MERGE_TIMEOUT_SECONDS } from "./merge-node.js";
