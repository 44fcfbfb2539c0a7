import { AiNodeConfig } from "./ai-node.js";
import { family } from "./family-definition.js";
import { FlowLinkConfig, flowLinkInputs } from "./flow-link.js";
import { ScheduledWorkflowConfig } from "./scheduled-workflow.js";

/** Families that start or call other flows: scheduled workflows, flow links and AI nodes. */
export const FLOW_FAMILIES = {
  scheduledWorkflow: family({
    nodeType: "scheduledWorkflow",
    path: "scheduled-workflows",
    idPrefix: "swf",
    config: ScheduledWorkflowConfig,
    defaults: { timezone: "UTC", method: "POST", headers: {}, isActive: true },
    source: true,
  }),
  flowLink: family({
    nodeType: "flowLink",
    path: "flow-links",
    idPrefix: "flk",
    config: FlowLinkConfig,
    defaults: { mode: "async" },
    inputsOf: flowLinkInputs,
    defaultName: "flow link",
  }),
  aiNode: family({
    nodeType: "ai",
    path: "ai-nodes",
    idPrefix: "ain",
    config: AiNodeConfig,
    defaults: { systemPrompt: "", toolWebhookIds: [], maxToolCalls: 5, credentialId: null },
  }),
} as const;
