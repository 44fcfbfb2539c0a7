import { z } from "@hono/zod-openapi";
import {
  compileJsonTemplate,
  HEALTH_STATUSES,
  isHttpUrl,
  PayloadFilterInput,
  WEBHOOK_URL_MAX_LENGTH,
} from "@hookflow/domain";
import { NodeTypeInput } from "@hookflow/pipeline";
import type { AdditionalTarget } from "@hookflow/services";

/**
 * Request and response bodies of `/api/additional-targets` (docs/decisions.md, "Additional
 * targets"). Unknown fields are ignored, like every resource's.
 */

const TARGET_MAX_RETRIES = 20;
const TARGET_DEFAULT_MAX_RETRIES = 3;
const TARGET_MAX_INPUTS = 50;
const TARGET_MAX_FILTERS = 50;

const TargetInputNode = z
  .object({
    nodeType: NodeTypeInput,
    nodeId: z.string().trim().min(1).max(100),
  })
  .refine((input) => input.nodeType === "webhook", {
    message: "An additional target is fed by webhooks only (nodeType webhook)",
    path: ["nodeType"],
  });

const PayloadTransform = z
  .string()
  .superRefine((source, ctx) => {
    const compiled = compileJsonTemplate(source);
    if (!compiled.ok) ctx.addIssue({ code: "custom", message: `The template ${compiled.reason}` });
  })
  .nullable()
  .meta({
    description:
      "JSON template: a string that is exactly {{path}} becomes the value at path with its JSON " +
      "type, {{path}} inside a longer string its text; the result is always valid JSON. At " +
      "most 64 KiB and 64 levels deep. null (or absent) sends the webhook's payload as it is.",
  });

const writable = {
  name: z.string().trim().min(1).max(200),
  url: z
    .string()
    .max(WEBHOOK_URL_MAX_LENGTH)
    .refine(isHttpUrl, { message: "Invalid URL" })
    .meta({ format: "uri", description: "Absolute http or https URL" }),
  isActive: z.boolean(),
  maxRetries: z
    .number()
    .int()
    .min(0)
    .max(TARGET_MAX_RETRIES)
    .meta({ description: "Retries after the first failure; plan-limited (free 3, pro 10)" }),
  inputNodes: z.array(TargetInputNode).max(TARGET_MAX_INPUTS),
  filters: z.array(PayloadFilterInput).max(TARGET_MAX_FILTERS),
  payloadTransform: PayloadTransform,
  notifyPrimaryOnFailure: z.boolean(),
};

export const CreateTargetInput = z
  .object({
    name: writable.name,
    url: writable.url,
    isActive: writable.isActive.default(true),
    maxRetries: writable.maxRetries.default(TARGET_DEFAULT_MAX_RETRIES),
    inputNodes: writable.inputNodes.default([]),
    filters: writable.filters.default([]),
    payloadTransform: writable.payloadTransform.default(null),
    notifyPrimaryOnFailure: writable.notifyPrimaryOnFailure.default(false),
  })
  .openapi("CreateAdditionalTargetInput");
export type CreateTargetInput = z.infer<typeof CreateTargetInput>;

export const UpdateTargetInput = z
  .object({
    name: writable.name.optional(),
    url: writable.url.optional(),
    isActive: writable.isActive.optional(),
    maxRetries: writable.maxRetries.optional(),
    inputNodes: writable.inputNodes.optional(),
    filters: writable.filters.optional(),
    payloadTransform: writable.payloadTransform.optional(),
    notifyPrimaryOnFailure: writable.notifyPrimaryOnFailure.optional(),
  })
  .openapi("UpdateAdditionalTargetInput", {
    description: "Only the fields given change; inputNodes and filters are replaced whole",
  });
export type UpdateTargetInput = z.infer<typeof UpdateTargetInput>;

export const AdditionalTargetResponse = z
  .object({
    id: z.string(),
    _id: z.string(),
    name: z.string(),
    url: z.string(),
    isActive: z.boolean(),
    maxRetries: z.number().int(),
    inputNodes: z.array(z.object({ nodeType: z.string(), nodeId: z.string() })),
    filters: z.array(
      z.object({ field: z.string(), operator: z.string(), value: z.string().optional() }),
    ),
    payloadTransform: z.string().nullable(),
    notifyPrimaryOnFailure: z.boolean(),
    healthStatus: z.enum(HEALTH_STATUSES),
    consecutiveFailures: z.number().int(),
    ownerId: z.string(),
    organizationId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("AdditionalTarget");
export type AdditionalTargetResponse = z.infer<typeof AdditionalTargetResponse>;

function healthOf(value: string): AdditionalTargetResponse["healthStatus"] {
  return value === "degraded" || value === "down" ? value : "healthy";
}

export function toTargetResponse(row: AdditionalTarget): AdditionalTargetResponse {
  return {
    id: row.id,
    _id: row.id,
    name: row.name,
    url: row.url,
    isActive: row.isActive,
    maxRetries: row.maxRetries,
    inputNodes: row.inputNodes,
    filters: row.filters.map((filter) => ({
      field: filter.field,
      operator: filter.operator,
      ...(filter.value !== undefined ? { value: filter.value } : {}),
    })),
    payloadTransform: row.payloadTransform,
    notifyPrimaryOnFailure: row.notifyPrimaryOnFailure,
    healthStatus: healthOf(row.healthStatus),
    consecutiveFailures: row.consecutiveFailures,
    ownerId: row.ownerId,
    organizationId: row.organizationId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
