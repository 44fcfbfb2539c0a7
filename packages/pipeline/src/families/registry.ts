import type { z } from "zod";
import { ACTION_FAMILIES } from "./action-families.js";
import type { InputNode, NodeType } from "./common.js";
import { FLOW_FAMILIES } from "./flow-families.js";
import { PROCESSING_FAMILIES } from "./processing-families.js";

/**
 * Every node family, by key, assembled from its groups (the family definition and how to add a
 * family: family-definition.ts). The order of the keys is FAMILY_KEYS' order.
 */
export const FAMILIES = {
  ...PROCESSING_FAMILIES,
  ...ACTION_FAMILIES,
  ...FLOW_FAMILIES,
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
