import { z } from "zod";

/** Messages from sandbox-host.mjs. */
export const SandboxMessage = z.union([
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("result"), id: z.number(), ok: z.literal(true), json: z.string() }),
  z.object({
    type: z.literal("result"),
    id: z.number(),
    ok: z.literal(false),
    error: z.string(),
    /** The isolate stopped the call at its time limit. */
    timedOut: z.literal(true).optional(),
  }),
]);
export type SandboxMessage = z.infer<typeof SandboxMessage>;

export interface SandboxJob {
  id: number;
  code: string;
  /** `{"payload": ..., "context": ...}` as JSON text. */
  input: string;
}
