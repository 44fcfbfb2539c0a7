import { matchesAll } from "@hookflow/domain";
import {
  jsonTextNestsDeeperThan,
  MAX_PAYLOAD_DEPTH,
  valueNestsDeeperThan,
} from "../payload-depth.js";
import type { PathOutcome, RunStart, StepDraft } from "./types.js";

type WebhookStart = Extract<RunStart, { kind: "webhook" }>;

/** What the webhook's own checks said: their steps, and the outcome that ends the event, if any. */
export interface WebhookEntry {
  steps: Array<Omit<StepDraft, "at">>;
  stop: PathOutcome | null;
}

/** Whether the webhook's payload nests past MAX_PAYLOAD_DEPTH (its text, when given, is cheaper). */
function nestsTooDeep(start: WebhookStart): boolean {
  if (typeof start.payload !== "object" || start.payload === null) return false;
  return start.payloadText === undefined
    ? valueNestsDeeperThan(start.payload, MAX_PAYLOAD_DEPTH)
    : jsonTextNestsDeeperThan(start.payloadText, MAX_PAYLOAD_DEPTH);
}

/**
 * The checks a fresh event passes at its webhook before any node: the payload filters (blocked
 * when they do not match), then, when the webhook has nodes, the payload's depth (the nodes
 * would serialize it somewhere, see payload-depth: the event fails as a payload breaking a
 * validator's contract would; payload filters only read paths). Pure.
 */
export function checkWebhookEntry(
  start: WebhookStart,
  webhookId: string,
  hasNodes: boolean,
): WebhookEntry {
  const steps: WebhookEntry["steps"] = [];
  if (start.payloadFilters.length > 0) {
    const base = { nodeType: "webhook", nodeId: webhookId, nodeName: "payload filters" };
    steps.push({ ...base, status: "running" });
    if (!matchesAll(start.payload, start.payloadFilters)) {
      const reason = "payload filters did not match";
      steps.push({ ...base, status: "blocked", durationMs: 0, error: reason });
      const where = { pathId: "root", nodeId: webhookId, nodeType: "webhook" } as const;
      return { steps, stop: { kind: "blocked", ...where, reason } };
    }
    steps.push({ ...base, status: "success", durationMs: 0 });
  }
  if (hasNodes && nestsTooDeep(start)) {
    const base = { nodeType: "webhook" as const, nodeId: webhookId, nodeName: "payload" };
    const error = `the payload nests more than ${MAX_PAYLOAD_DEPTH} levels deep`;
    steps.push({ ...base, status: "running" });
    steps.push({ ...base, status: "error", durationMs: 0, error });
    const where = { pathId: "root", nodeId: webhookId, nodeType: "webhook" } as const;
    return { steps, stop: { kind: "failed", ...where, error, failure: "validation" } };
  }
  return { steps, stop: null };
}
