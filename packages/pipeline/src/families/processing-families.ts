import {
  ApprovalNodeConfig,
  DelayNodeConfig,
  FilterNodeConfig,
  MergeNodeConfig,
  RateLimiterNodeConfig,
  RouterConfig,
  SchemaValidatorConfig,
  TransformNodeConfig,
} from "./definitions.js";
import { family } from "./family-definition.js";

/**
 * Processing nodes that route, filter, shape, pace and gate the events passing through a graph
 * (the processing families that start or call other flows: flow-families.ts).
 */
export const PROCESSING_FAMILIES = {
  router: family({
    nodeType: "router",
    path: "routers",
    idPrefix: "rtr",
    config: RouterConfig,
    defaults: {},
  }),
  filter: family({
    nodeType: "filter",
    path: "filter-nodes",
    idPrefix: "fltn",
    config: FilterNodeConfig,
    defaults: { filterMode: "and" },
  }),
  transform: family({
    nodeType: "transform",
    path: "transform-nodes",
    idPrefix: "trn",
    config: TransformNodeConfig,
    defaults: {},
  }),
  schemaValidator: family({
    nodeType: "schemaValidator",
    path: "schema-validators",
    idPrefix: "sv",
    config: SchemaValidatorConfig,
    defaults: { strictMode: false, fields: [] },
  }),
  delay: family({
    nodeType: "delay",
    path: "delay-nodes",
    idPrefix: "dly",
    config: DelayNodeConfig,
    defaults: {},
  }),
  merge: family({
    nodeType: "merge",
    path: "merge-nodes",
    idPrefix: "mrg",
    config: MergeNodeConfig,
    defaults: { mode: "wait_all", expectedBranchCount: 2 },
  }),
  approval: family({
    nodeType: "approval",
    path: "approval-nodes",
    idPrefix: "apr",
    config: ApprovalNodeConfig,
    defaults: { timeoutMinutes: 60, autoActionOnTimeout: "reject", notifyEmails: [] },
  }),
  rateLimiter: family({
    nodeType: "rateLimiter",
    path: "rate-limiter-nodes",
    idPrefix: "rln",
    config: RateLimiterNodeConfig,
    defaults: {
      overflowAction: "drop",
      maxQueueDelaySeconds: 300,
      outputWebhookIds: [],
      outputTransformIds: [],
      isActive: true,
    },
  }),
} as const;
