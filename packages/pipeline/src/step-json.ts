import type { StepDraft } from "./engine/types.js";
import { boundedPayloadJson, stringifyWithRaw } from "./payload-json.js";

/**
 * The JSON text of a pipeline step, written once and used twice: as the step of its live stream
 * message and as its element of the job's stored step batch. `{eventId, nodeType, nodeId,
 * nodeName?, status, statusCode?, durationMs?, error?, at, lastPayload?}`: durationMs to the
 * microsecond, the payload's own text spliced in (a marker past `payloadLimitBytes`).
 */
const written = new WeakMap<StepDraft, string>();

export function stepJson(eventId: string, step: StepDraft, payloadLimitBytes: number): string {
  const known = written.get(step);
  if (known !== undefined) return known;
  // A fixed shape; JSON.stringify leaves out the fields that are undefined.
  const fields = {
    eventId,
    nodeType: step.nodeType,
    nodeId: step.nodeId,
    nodeName: step.nodeName,
    status: step.status,
    statusCode: step.statusCode,
    durationMs:
      step.durationMs === undefined ? undefined : Math.round(step.durationMs * 1000) / 1000,
    error: step.error,
    at: step.at,
    // Small by construction (usage counts, tool names); never a payload.
    detail: step.detail,
  };
  const payload =
    step.lastPayload === undefined
      ? undefined
      : boundedPayloadJson(step.lastPayload, payloadLimitBytes);
  const text = stringifyWithRaw(fields, "lastPayload", payload);
  written.set(step, text);
  return text;
}
