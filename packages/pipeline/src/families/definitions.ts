import {
  estimatePatternSize,
  MAX_NODE_PATTERN_SIZE,
  MAX_PATTERN_LENGTH,
  userPatternProblem,
} from "@hookflow/domain";
import { z } from "zod";
import { FilterRule } from "./common.js";

/**
 * Config of each processing-node family (the documented Node families table and decisions.md
 * section 8). These schemas describe a complete, stored config; `defaults` lists the fields a
 * create may omit. Every family also has `name` and `inputNodes` (see registry.ts).
 */

const id = () => z.string().trim().min(1).max(100);
const int = (min: number, max: number) => z.number().int().min(min).max(max);

export const RouterConfig = z.object({
  routes: z
    .array(
      z
        .object({ outputWebhookId: id() })
        .and(FilterRule)
        .meta({ description: "A filter rule and the webhook a matching event is forwarded to" }),
    )
    .min(1)
    .max(100),
});
export type RouterConfig = z.infer<typeof RouterConfig>;

export const FilterNodeConfig = z.object({
  filterMode: z.enum(["and", "or"]),
  filters: z.array(FilterRule).min(1).max(100),
});
export type FilterNodeConfig = z.infer<typeof FilterNodeConfig>;

export const TRANSFORM_TEMPLATE_MAX_LENGTH = 64 * 1024;

export const TransformNodeConfig = z.object({
  transformMode: z.enum(["handlebars", "jq", "javascript"]),
  template: z
    .string()
    .min(1)
    .max(TRANSFORM_TEMPLATE_MAX_LENGTH)
    .meta({
      description:
        "Handlebars template, jq program or JavaScript. Limits per run: JavaScript 50 ms and " +
        "32 MB; jq 100 ms and 128 MB; Handlebars 2 ms on the event loop, then 100 ms on a " +
        "worker thread, 50,000 #each turns and 8 MiB written or serialized; output 1 MiB. A " +
        "run over a limit fails its event's node with the limit in the error.",
    }),
});
export type TransformNodeConfig = z.infer<typeof TransformNodeConfig>;

export const SCHEMA_FIELD_TYPES = [
  "string",
  "number",
  "integer",
  "boolean",
  "object",
  "array",
  "null",
] as const;

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** Compiled on the linear-time engine (`compileUserPattern`): what it refuses is a 400. */
const Pattern = z
  .string()
  .max(MAX_PATTERN_LENGTH)
  .superRefine((source, ctx) => {
    const problem = userPatternProblem(source);
    if (problem) ctx.addIssue({ code: "custom", message: `pattern ${problem}` });
  })
  .meta({
    description:
      "Regular expression (JavaScript syntax, run with RE2 semantics in linear time: no lookarounds or back-references)",
  });

export const SchemaFieldConstraints = z.object({
  min: z.number().optional(),
  max: z.number().optional(),
  minLength: int(0, 1_000_000).optional(),
  maxLength: int(0, 1_000_000).optional(),
  pattern: Pattern.optional(),
  enum: z.array(Scalar).min(1).max(500).optional(),
  format: z.enum(["email", "uri", "date-time", "uuid"]).optional(),
});
export type SchemaFieldConstraints = z.infer<typeof SchemaFieldConstraints>;

export const SchemaField = z.object({
  path: z.string().trim().min(1).max(200),
  type: z.enum(SCHEMA_FIELD_TYPES),
  required: z.boolean().default(false),
  constraints: SchemaFieldConstraints.optional(),
});
export type SchemaField = z.infer<typeof SchemaField>;

export const SchemaValidatorConfig = z.object({
  strictMode: z.boolean(),
  fields: z
    .array(SchemaField)
    .max(500)
    .superRefine((fields, ctx) => {
      let total = 0;
      for (const field of fields) {
        const pattern = field.constraints?.pattern;
        if (pattern !== undefined) total += estimatePatternSize(pattern);
      }
      if (total > MAX_NODE_PATTERN_SIZE) {
        ctx.addIssue({
          code: "custom",
          message: `the patterns are too large together for the linear-time engine (about ${total} instructions, at most ${MAX_NODE_PATTERN_SIZE})`,
        });
      }
    }),
});
export type SchemaValidatorConfig = z.infer<typeof SchemaValidatorConfig>;

/** Seven days: a longer wait belongs in a scheduled workflow. */
export const MAX_DELAY_SECONDS = 7 * 24 * 3600;

export const DelayNodeConfig = z.object({
  delaySeconds: int(1, MAX_DELAY_SECONDS),
});
export type DelayNodeConfig = z.infer<typeof DelayNodeConfig>;

export const MergeNodeConfig = z.object({
  mode: z.enum(["wait_all", "first"]),
  expectedBranchCount: int(1, 50),
});
export type MergeNodeConfig = z.infer<typeof MergeNodeConfig>;

export const ApprovalNodeConfig = z.object({
  timeoutMinutes: int(1, 30 * 24 * 60),
  autoActionOnTimeout: z.enum(["approve", "reject"]),
  notifyEmails: z
    .array(z.email().max(320))
    .max(50)
    .meta({
      description:
        "Mailed an approve/reject request each time an event parks here: at most " +
        "MAIL_MAX_RECIPIENTS addresses (default 10, never more than 50). Every recipient " +
        "counts against the owner's hourly mail budget (MAIL_RATE_LIMIT_PER_HOUR); a mail over " +
        "it is not sent, its outbox entry says why, and the event still waits for a decision.",
    }),
});
export type ApprovalNodeConfig = z.infer<typeof ApprovalNodeConfig>;

export const RateLimiterNodeConfig = z.object({
  maxEvents: int(1, 1_000_000),
  windowSeconds: int(1, 86_400),
  overflowAction: z.enum(["drop", "queue"]),
  maxQueueDelaySeconds: int(0, 86_400),
  outputWebhookIds: z.array(id()).max(50),
  outputTransformIds: z.array(id()).max(50),
  isActive: z.boolean(),
});
export type RateLimiterNodeConfig = z.infer<typeof RateLimiterNodeConfig>;
