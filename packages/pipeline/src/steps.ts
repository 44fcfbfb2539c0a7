import { FINAL_STATUSES, type FinalStatus } from "@hookflow/domain";
import { z } from "zod";

/** Step statuses (docs/decisions.md, "Delivery"): `running`, then exactly one of the other three. */
export const STEP_STATUSES = ["running", "success", "error", "blocked"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/**
 * One step of an event's pipeline (the documented Stream step payload). `nodeType` is a canonical
 * node type (`filter`, `transform`, ...), `webhook` for payload filters, `delivery` for an
 * attempt at a target and `forward` for a forward the worker blocked (`nodeId`: its webhook).
 */
export const PipelineStep = z.object({
  eventId: z.string(),
  nodeType: z.string(),
  nodeId: z.string(),
  nodeName: z.string().optional(),
  status: z.enum(STEP_STATUSES),
  statusCode: z.number().int().optional(),
  durationMs: z.number().optional(),
  lastPayload: z.unknown().optional(),
  /** Node-specific record (an AI node's token usage and tool calls, a dry run's request). */
  detail: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
  /** ISO 8601 time the step was emitted. */
  at: z.string(),
});
export type PipelineStep = z.infer<typeof PipelineStep>;

/** Final statuses an event's pipeline can settle in. */
export const SETTLED_STATUSES = FINAL_STATUSES;
export type SettledStatus = FinalStatus;

/** syncStatus values: 200 delivered, 422 validation failed, 502 failed, 408 timeout. */
export type SyncStatus = 200 | 422 | 502 | 408;

/**
 * The `done` message: the SSE data is `{status, body}`; the rest feeds sync mode.
 * `filtered` and `cancelled` settle with status 200 (the pipeline ran as configured).
 */
export const PipelineDone = z.object({
  eventId: z.string(),
  status: z.union([z.literal(200), z.literal(422), z.literal(502)]),
  body: z.object({
    deliveryStatus: z.enum(SETTLED_STATUSES),
    statusCode: z.number().int(),
    latencyMs: z.number(),
  }),
  /** The target's response body, first 4 KB. */
  response: z.string().optional(),
});
export type PipelineDone = z.infer<typeof PipelineDone>;

/** The event parked at a node (delay, merge, approval, rate limiter queue): sync mode answers. */
export const PipelineParked = z.object({
  eventId: z.string(),
  awaitingApproval: z.boolean().optional(),
  awaitingMerge: z.boolean().optional(),
  delayed: z.boolean().optional(),
});
export type PipelineParked = z.infer<typeof PipelineParked>;

/** What travels on the steps channel and sits in the per-event replay buffer. */
export const StepMessage = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("step"), step: PipelineStep }),
  z.object({ kind: z.literal("done"), done: PipelineDone }),
  z.object({ kind: z.literal("parked"), parked: PipelineParked }),
]);
export type StepMessage = z.infer<typeof StepMessage>;
