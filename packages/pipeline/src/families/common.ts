import { PayloadFilterInput } from "@hookflow/domain";
import { z } from "zod";

/**
 * Canonical `nodeType` values used in `inputNodes`, steps and parked-at records. Writes accept the
 * aliases below (the documented examples use `filter`, users write `filter-node`, `filterNode`, or the
 * family path) and store the canonical name.
 */
export const NODE_TYPES = [
  "webhook",
  "router",
  "filter",
  "transform",
  "schemaValidator",
  "delay",
  "merge",
  "approval",
  "rateLimiter",
  "scheduledWorkflow",
  "httpAction",
  "emailAction",
  "notificationAction",
  "sheetsAction",
  "gmailAction",
  "mongoAction",
  "flowLink",
  "ai",
] as const;
export type NodeType = (typeof NODE_TYPES)[number];

const ALIASES: Record<string, NodeType> = {
  webhook: "webhook",
  webhooks: "webhook",
  router: "router",
  routers: "router",
  filter: "filter",
  filternode: "filter",
  filternodes: "filter",
  transform: "transform",
  transformnode: "transform",
  transformnodes: "transform",
  schemavalidator: "schemaValidator",
  schemavalidators: "schemaValidator",
  validator: "schemaValidator",
  delay: "delay",
  delaynode: "delay",
  delaynodes: "delay",
  merge: "merge",
  mergenode: "merge",
  mergenodes: "merge",
  approval: "approval",
  approvalnode: "approval",
  approvalnodes: "approval",
  ratelimiter: "rateLimiter",
  ratelimiternode: "rateLimiter",
  ratelimiternodes: "rateLimiter",
  scheduledworkflow: "scheduledWorkflow",
  scheduledworkflows: "scheduledWorkflow",
  httpaction: "httpAction",
  httpactions: "httpAction",
  emailaction: "emailAction",
  emailactions: "emailAction",
  notificationaction: "notificationAction",
  notificationactions: "notificationAction",
  sheetsaction: "sheetsAction",
  sheetsactions: "sheetsAction",
  gmailaction: "gmailAction",
  gmailactions: "gmailAction",
  mongoaction: "mongoAction",
  mongoactions: "mongoAction",
  flowlink: "flowLink",
  flowlinks: "flowLink",
  ainode: "ai",
  ainodes: "ai",
  ai: "ai",
};

/** `"filter-node"`, `"filterNode"`, `"filter-nodes"` -> `"filter"`; unknown -> undefined. */
export function canonicalNodeType(raw: string): NodeType | undefined {
  return ALIASES[raw.replace(/[-_\s]/g, "").toLowerCase()];
}

export const NodeTypeInput = z
  .string()
  .transform((raw, ctx) => {
    const type = canonicalNodeType(raw);
    if (!type) {
      ctx.addIssue({ code: "custom", message: `Unknown node type "${raw}"` });
      return z.NEVER;
    }
    return type;
  })
  .meta({ description: `One of ${NODE_TYPES.join(", ")}` });

export const InputNode = z.object({
  nodeType: NodeTypeInput,
  nodeId: z.string().trim().min(1).max(100),
});
export type InputNode = z.infer<typeof InputNode>;

export const InputNodes = z.array(InputNode).max(50);

export const NodeName = z.string().trim().min(1).max(200);

/** A filter rule of filter nodes and routers: the webhook payload-filter rule. */
export const FilterRule = PayloadFilterInput;
export type FilterRule = z.infer<typeof FilterRule>;
