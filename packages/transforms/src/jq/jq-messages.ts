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
    /** jq `main`s the thread has started for batches (a diagnostic: batches of a key share one). */
    mainStarts: z.number(),
  }),
  z.object({ type: z.literal("too_large"), id: z.number(), memoryBytes: z.number() }),
  z.object({ type: z.literal("fatal"), id: z.number(), message: z.string() }),
]);
export type JqWorkerMessage = z.infer<typeof JqWorkerMessage>;

/** A batch for a jq worker thread (on its command port). */
export interface JqJob {
  type: "job";
  id: number;
  /** Webhook and program: batches of the key the thread's jq `main` runs continue it. */
  key: string;
  program: string;
  stdin: string;
  maxStdoutChars: number;
}
