import { z } from "zod";

/**
 * What an event's pipeline has produced so far in its current run, kept with the event (the
 * worker stores it as JSON) so a retried or resumed job never applies a path twice and the event's
 * status can be derived once its last path ends.
 */
export const EventPipelineState = z.object({
  /** A path claimed the event itself for delivery (the first path that reached its end). */
  claimed: z.boolean(),
  /** Paths delivered as further events of the same webhook. */
  children: z.number().int(),
  forwarded: z.number().int(),
  blocked: z.number().int(),
  failed: z.number().int(),
  /** The first failure, for the event's lastError and its done status. */
  failure: z
    .object({
      nodeId: z.string(),
      nodeType: z.string(),
      error: z.string(),
      kind: z.enum(["validation", "transform", "merge_timeout", "graph"]),
    })
    .optional(),
  /** Merge nodes that went on or timed out in this run: later arrivals there end at once. */
  merges: z.record(z.string(), z.enum(["done", "expired"])).default({}),
});
export type EventPipelineState = z.infer<typeof EventPipelineState>;

export const EMPTY_PIPELINE_STATE: EventPipelineState = {
  claimed: false,
  children: 0,
  forwarded: 0,
  blocked: 0,
  failed: 0,
  merges: {},
};
