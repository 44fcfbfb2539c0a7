// The step messages' module alone: the ingress and stream roles load this package without the
// node graph.
import { StepMessage } from "@hookflow/pipeline/steps";
import { z } from "zod";

/**
 * One published step message as it travels on the steps channel and sits in the per-event
 * replay buffer: `seq` numbers the event's messages from 1 (the SSE `id:`), in publish order.
 */
export const StepEntry = z.object({
  seq: z.number().int().positive(),
  eventId: z.string(),
  message: StepMessage,
});
export type StepEntry = z.infer<typeof StepEntry>;

/**
 * Entries are written by the publish script as `{"seq":N,"eventId":"...","message":...}`, so the
 * event id can be read without parsing the whole message: a process fanning out the channel
 * parses only the messages someone is watching.
 */
const HEAD = /^\{"seq":\d+,"eventId":"((?:[^"\\]|\\.)*)"/;

/** The event id of a raw entry, or null when the text is not an entry. */
export function peekEventId(raw: string): string | null {
  const match = HEAD.exec(raw);
  if (!match || match[1] === undefined) return null;
  const quoted = match[1];
  if (!quoted.includes("\\")) return quoted;
  try {
    return JSON.parse(`"${quoted}"`) as string;
  } catch {
    return null;
  }
}

/** Parses a raw entry; null when it is not valid JSON or not an entry. */
export function parseStepEntry(raw: string): StepEntry | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = StepEntry.safeParse(json);
  return parsed.success ? parsed.data : null;
}
