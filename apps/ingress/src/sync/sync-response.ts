import type { PipelineStep } from "@hookflow/queue";
import type { SyncOutcome } from "./sync-waiter.js";

/** The target's response is returned truncated to 4 KB (spec limits). */
const SYNC_RESPONSE_LIMIT_BYTES = 4096;

/**
 * syncStatus: the `done` status (200 delivered, and also filtered or cancelled, where the
 * pipeline ran as configured; 422 validation failed; 502 failed), 408 when the wait ran out (the
 * pipeline keeps running), and 202 when the pipeline will go on later: the event is parked at an
 * approval, merge or delay node, or its webhook is inactive (held until it is activated).
 */
type SyncStatus = 200 | 202 | 408 | 422 | 502;

export interface SyncResponseBody {
  eventId: string;
  syncStatus: SyncStatus;
  steps: PipelineStep[];
  response?: string;
  awaitingApproval?: boolean;
  awaitingMerge?: boolean;
  delayed?: boolean;
  /** To keep following the pipeline on the stream after a 408 or a park. */
  streamToken: string;
}

function truncate(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.byteLength <= SYNC_RESPONSE_LIMIT_BYTES) return text;
  let end = SYNC_RESPONSE_LIMIT_BYTES;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

/** Answered without waiting: the webhook is inactive, nothing runs until it is activated. */
export type HeldOutcome = { kind: "held"; steps: [] };

/** The 200 body of a sync-mode ingress request. */
export function syncResponseOf(
  eventId: string,
  streamToken: string,
  outcome: SyncOutcome | HeldOutcome,
): SyncResponseBody {
  const base = { eventId, steps: outcome.steps, streamToken };
  switch (outcome.kind) {
    case "held":
      return { ...base, syncStatus: 202 };
    case "done": {
      const { status, response } = outcome.done;
      return {
        ...base,
        syncStatus: status,
        ...(response === undefined ? {} : { response: truncate(response) }),
      };
    }
    case "parked": {
      const { awaitingApproval, awaitingMerge, delayed } = outcome.parked;
      return {
        ...base,
        syncStatus: 202,
        ...(awaitingApproval ? { awaitingApproval } : {}),
        ...(awaitingMerge ? { awaitingMerge } : {}),
        ...(delayed ? { delayed } : {}),
      };
    }
    case "timeout":
    case "aborted":
      return { ...base, syncStatus: 408 };
  }
}
