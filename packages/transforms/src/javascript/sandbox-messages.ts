import { z } from "zod";

/** The outcome of one call of a batch, in the batch's order. */
export const SandboxCallResult = z.union([
  z.object({ ok: z.literal(true), json: z.string() }),
  z.object({
    ok: z.literal(false),
    error: z.string(),
    /** The isolate stopped the call at its time limit. */
    timedOut: z.literal(true).optional(),
  }),
]);
export type SandboxCallResult = z.infer<typeof SandboxCallResult>;

/** Messages from sandbox-host.mjs. */
export const SandboxMessage = z.union([
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("results"), id: z.number(), results: z.array(SandboxCallResult) }),
]);
export type SandboxMessage = z.infer<typeof SandboxMessage>;

/** Calls for one sandbox process, run one after another and answered in one message. */
export interface SandboxBatch {
  id: number;
  /**
   * The distinct programs of the batch as `[scope, code]`; calls name theirs by index. Calls of
   * one scope (a node of a webhook) with the same code share a warm context in the sandbox.
   */
  programs: [string, string][];
  /** `[program index, {"payload": ..., "context": ...} as JSON text]` per call. */
  calls: [number, string][];
}
