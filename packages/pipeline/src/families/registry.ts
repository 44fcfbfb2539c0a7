import type { z } from "zod";
import {
  EmailActionConfig,
  GmailActionConfig,
  HttpActionConfig,
  MongoActionConfig,
  NotificationActionConfig,
  SheetsActionConfig,
} from "./action-definitions.js";
import { AiNodeConfig } from "./ai-node.js";
import type { InputNode, NodeType } from "./common.js";
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
import { FlowLinkConfig, flowLinkInputs } from "./flow-link.js";
import { ScheduledWorkflowConfig } from "./scheduled-workflow.js";

/**
 * One entry per processing-node family. Adding a family is one entry here (plus its executor in
 * the engine): the API's CRUD routes, the database table and the graph code are generic.
 */
interface FamilyDefinition<T extends z.ZodObject> {
  /** Canonical node type, used in inputNodes, steps and parkedAt. */
  nodeType: NodeType;
  /** URL path segment under /api. */
  path: string;
  /** Id prefix: `rtr_01J...`. */
  idPrefix: string;
  config: T;
  /** Values for the config fields a create may omit. */
  defaults: Partial<z.infer<T>>;
  /**
   * `action`: a post-delivery action, fired after its event's delivery settles (never a node of
   * the graph an event passes through). Absent: a processing node.
   */
  role?: "action";
  /**
   * A source starts events of its own (a scheduled workflow's ticks) and takes no inputNodes;
   * it never runs inside a webhook's pipeline.
   */
  source?: true;
  /** inputNodes derived from the config (a flow link's source); a body may not set them. */
  inputsOf?: (config: z.infer<T>) => InputNode[];
  /** The name a create without one gets. */
  defaultName?: string;
}

function family<T extends z.ZodObject>(definition: FamilyDefinition<T>): FamilyDefinition<T> {
  return definition;
}

function action<T extends z.ZodObject>(
  definition: Omit<FamilyDefinition<T>, "role">,
): FamilyDefinition<T> & { role: "action" } {
  return { ...definition, role: "action" };
}

export const FAMILIES = {
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
  httpAction: action({
    nodeType: "httpAction",
    path: "http-actions",
    idPrefix: "hta",
    config: HttpActionConfig,
    defaults: { method: "POST", headers: {}, triggerOn: "success", isActive: true },
  }),
  emailAction: action({
    nodeType: "emailAction",
    path: "email-actions",
    idPrefix: "ema",
    config: EmailActionConfig,
    defaults: { triggerOn: "success", isActive: true },
  }),
  notificationAction: action({
    nodeType: "notificationAction",
    path: "notification-actions",
    idPrefix: "nta",
    config: NotificationActionConfig,
    defaults: { templatePreset: "default", triggerOn: "success", isActive: true },
  }),
  sheetsAction: action({
    nodeType: "sheetsAction",
    path: "sheets-actions",
    idPrefix: "sha",
    config: SheetsActionConfig,
    defaults: {
      sheetName: "Sheet1",
      operation: "append_row",
      triggerOn: "success",
      isActive: true,
    },
  }),
  gmailAction: action({
    nodeType: "gmailAction",
    path: "gmail-actions",
    idPrefix: "gma",
    config: GmailActionConfig,
    defaults: {
      operation: "send",
      operationConfig: {},
      aiEnabled: false,
      triggerOn: "success",
      isActive: true,
    },
  }),
  mongoAction: action({
    nodeType: "mongoAction",
    path: "mongo-actions",
    idPrefix: "mga",
    config: MongoActionConfig,
    defaults: { operation: "insertOne", triggerOn: "success", isActive: true },
  }),
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

export type FamilyKey = keyof typeof FAMILIES;
export const FAMILY_KEYS = Object.keys(FAMILIES) as FamilyKey[];
export type FamilyConfig<F extends FamilyKey> = z.infer<(typeof FAMILIES)[F]["config"]>;

type ActionKeyOf<K extends FamilyKey> = K extends FamilyKey
  ? (typeof FAMILIES)[K] extends { role: "action" }
    ? K
    : never
  : never;
/** Post-delivery action families (http-actions, email-actions, ...). */
export type ActionFamilyKey = ActionKeyOf<FamilyKey>;
/** Families of nodes an event passes through in its graph. */
export type ProcessingFamilyKey = Exclude<FamilyKey, ActionFamilyKey>;

export function isActionFamily(key: string): key is ActionFamilyKey {
  return (
    Object.hasOwn(FAMILIES, key) &&
    (FAMILIES[key as FamilyKey] as { role?: string }).role === "action"
  );
}
export const ACTION_FAMILY_KEYS = FAMILY_KEYS.filter(isActionFamily);

/** Every credential a config names (`credentialId`), with the field naming it. */
export function credentialReferencesOf<F extends FamilyKey>(
  _key: F,
  config: FamilyConfig<F>,
): Array<{ field: string; credentialId: string }> {
  const credentialId = (config as { credentialId?: unknown }).credentialId;
  return typeof credentialId === "string" ? [{ field: "credentialId", credentialId }] : [];
}

/** The family whose canonical node type is `type` (webhooks have none). */
export function familyOfNodeType(type: NodeType): FamilyKey | undefined {
  return FAMILY_KEYS.find((key) => FAMILIES[key].nodeType === type);
}

/** The family whose id prefix starts `id` (`rtr_...` -> router). */
export function familyOfId(id: string): FamilyKey | undefined {
  const prefix = id.slice(0, id.indexOf("_"));
  return FAMILY_KEYS.find((key) => FAMILIES[key].idPrefix === prefix);
}

/** A node a config references besides its inputNodes, with the field that names it. */
export interface OutputReference extends InputNode {
  /** Dotted path of the field in the node's body: `routes.0.outputWebhookId`. */
  field: string;
}

/**
 * Every node a config references besides its inputNodes: routers' output webhooks, rate
 * limiters' output webhooks and transforms. The API checks each exists and is visible.
 */
export function outputReferencesOf<F extends FamilyKey>(
  key: F,
  config: FamilyConfig<F>,
): OutputReference[] {
  if (key === "router") {
    return (config as FamilyConfig<"router">).routes.map((route, i) => ({
      nodeType: "webhook" as const,
      nodeId: route.outputWebhookId,
      field: `routes.${i}.outputWebhookId`,
    }));
  }
  if (key === "rateLimiter") {
    const limiter = config as FamilyConfig<"rateLimiter">;
    return [
      ...limiter.outputWebhookIds.map((nodeId, i) => ({
        nodeType: "webhook" as const,
        nodeId,
        field: `outputWebhookIds.${i}`,
      })),
      ...limiter.outputTransformIds.map((nodeId, i) => ({
        nodeType: "transform" as const,
        nodeId,
        field: `outputTransformIds.${i}`,
      })),
    ];
  }
  if (key === "aiNode") {
    return (config as FamilyConfig<"aiNode">).toolWebhookIds.map((nodeId, i) => ({
      nodeType: "webhook" as const,
      nodeId,
      field: `toolWebhookIds.${i}`,
    }));
  }
  if (key === "flowLink") {
    const webhookId = (config as FamilyConfig<"flowLink">).webhookId;
    return [{ nodeType: "webhook" as const, nodeId: webhookId, field: "webhookId" }];
  }
  if (key === "scheduledWorkflow") {
    const webhookId = (config as FamilyConfig<"scheduledWorkflow">).webhookId;
    return webhookId
      ? [{ nodeType: "webhook" as const, nodeId: webhookId, field: "webhookId" }]
      : [];
  }
  return [];
}

/** A config field that lists mail recipients, with the addresses it holds now. */
export interface MailRecipientField {
  field: string;
  addresses: readonly string[];
}

/**
 * Every list of mail recipients a config holds (an approval gate's `notifyEmails`). The API caps
 * each at MAIL_MAX_RECIPIENTS when a node is written; a family that sends mail lists its
 * recipient fields here.
 */
export function mailRecipientsOf<F extends FamilyKey>(
  key: F,
  config: FamilyConfig<F>,
): MailRecipientField[] {
  if (key === "approval") {
    return [
      { field: "notifyEmails", addresses: (config as FamilyConfig<"approval">).notifyEmails },
    ];
  }
  if (key === "emailAction") {
    // Each comma- or semicolon-separated part, a template or not, is one recipient at least.
    const to = (config as FamilyConfig<"emailAction">).to;
    const addresses = to
      .split(/[,;]/)
      .map((part) => part.trim())
      .filter((part) => part !== "");
    return [{ field: "to", addresses }];
  }
  return [];
}

/**
 * The config without any output reference to `nodeId` (the node is being deleted). The caller
 * validates the result with the family schema: a family whose config cannot lose the reference
 * makes the delete a conflict.
 */
export function withoutOutputReference<F extends FamilyKey>(
  key: F,
  config: FamilyConfig<F>,
  nodeId: string,
): FamilyConfig<F> {
  if (key === "router") {
    const router = config as FamilyConfig<"router">;
    const routes = router.routes.filter((route) => route.outputWebhookId !== nodeId);
    return { ...router, routes } as FamilyConfig<F>;
  }
  if (key === "rateLimiter") {
    const limiter = config as FamilyConfig<"rateLimiter">;
    return {
      ...limiter,
      outputWebhookIds: limiter.outputWebhookIds.filter((id) => id !== nodeId),
      outputTransformIds: limiter.outputTransformIds.filter((id) => id !== nodeId),
    } as FamilyConfig<F>;
  }
  if (key === "aiNode") {
    const ai = config as FamilyConfig<"aiNode">;
    return {
      ...ai,
      toolWebhookIds: ai.toolWebhookIds.filter((id) => id !== nodeId),
    } as FamilyConfig<F>;
  }
  if (key === "scheduledWorkflow") {
    const workflow = config as FamilyConfig<"scheduledWorkflow">;
    // Without its webhook a webhook-mode workflow is invalid: deleting the webhook is a 409.
    if (workflow.webhookId === nodeId) return { ...workflow, webhookId: null } as FamilyConfig<F>;
  }
  return config;
}
