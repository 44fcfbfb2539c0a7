import { z } from "zod";

/** Messages from jq-worker.mjs. */
export const JqWorkerMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }),
  z.object({
    type: z.literal("done"),
    id: z.number(),
    stdout: z.string(),
    stderr: z.string(),
    exitCode: z.number(),
    memoryBytes: z.number(),
  }),
  z.object({ type: z.literal("too_large"), id: z.number(), memoryBytes: z.number() }),
  z.object({ type: z.literal("fatal"), id: z.number(), message: z.string() }),
]);
export type JqWorkerMessage = z.infer<typeof JqWorkerMessage>;

export interface JqJob {
  id: number;
  program: string;
  stdin: string;
  maxStdoutChars: number;
}
