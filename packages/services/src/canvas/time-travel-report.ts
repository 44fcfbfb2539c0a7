import { predictFinalStatus, type RunResult } from "@hookflow/pipeline";
import type { FrozenWebhook } from "./frozen-graph.js";

/**
 * What each step of a time-travel run says (docs/decisions.md, "Node families and canvas"):
 * - `passed`: the node let the event through (`payload` shows it when the node changed it);
 * - `forwarded`: a router or rate limiter sent it on as a new event (`forwardedTo` webhooks), or
 *   a flow link would run its webhook's pipeline (`payload`: what it would be called with);
 * - `blocked`: the node stopped the path on purpose (filter, router or payload filters without
 *   a match, rate-limiter drop; `reason`);
 * - `failed`: the node failed the event (validation, transform error; `error`);
 * - `parked`: the path would wait here (`park`: delay, approval, rateLimiter queue, merge);
 * - `would_deliver`: the path reached its end and would be delivered (`payload`).
 */
type TimeTravelResult = "passed" | "forwarded" | "blocked" | "failed" | "parked" | "would_deliver";

interface TimeTravelStep {
  /** Node id (the webhook id for payload filters). */
  node: string;
  nodeType: string;
  name: string;
  result: TimeTravelResult;
  reason?: string;
  error?: string;
  park?: string;
  forwardedTo?: string[];
  payload?: unknown;
  /** An AI node: the chat-completions request it would send (nothing is called). */
  wouldCall?: unknown;
}

export interface TimeTravelReport {
  steps: TimeTravelStep[];
  /**
   * The status the event would end in: delivered when a path would be delivered or forwarded,
   * else pending when a path would wait, else failed, else filtered.
   */
  finalStatus: "delivered" | "pending" | "failed" | "filtered";
  /** Distinct processing nodes the event passed (passed or forwarded). */
  matchedNodes: number;
}

/** Turns a dry run's steps and outcomes into the time-travel answer. */
export function buildTimeTravelReport(run: RunResult, webhook: FrozenWebhook): TimeTravelReport {
  const forwards = new Map<string, string[]>();
  /** What each flow link would run its webhook's pipeline on (nothing is called in a dry run). */
  const linkInputs = new Map<string, unknown>();
  for (const outcome of run.outcomes) {
    if (outcome.kind !== "forward") continue;
    const list = forwards.get(outcome.viaNodeId) ?? [];
    if (!list.includes(outcome.webhookId)) list.push(outcome.webhookId);
    forwards.set(outcome.viaNodeId, list);
    if (outcome.viaNodeType === "flowLink") linkInputs.set(outcome.viaNodeId, outcome.payload);
  }
  const names = new Map<string, string>();
  const steps: TimeTravelStep[] = [];
  for (const step of run.steps) {
    const isWebhook = step.nodeType === "webhook";
    const name = step.nodeName ?? (isWebhook ? webhook.name : step.nodeId);
    names.set(step.nodeId, name);
    if (step.status === "running") continue;
    const base = { node: step.nodeId, nodeType: step.nodeType, name };
    if (step.status === "blocked") {
      steps.push({ ...base, result: "blocked", reason: step.error ?? "stopped" });
    } else if (step.status === "error") {
      steps.push({ ...base, result: "failed", error: step.error ?? "failed" });
    } else {
      const forwardedTo = forwards.get(step.nodeId);
      steps.push({
        ...base,
        result: forwardedTo ? "forwarded" : "passed",
        ...(forwardedTo ? { forwardedTo } : {}),
        ...(step.lastPayload !== undefined ? { payload: step.lastPayload } : {}),
        ...(linkInputs.has(step.nodeId) ? { payload: linkInputs.get(step.nodeId) } : {}),
        ...(step.detail?.dryRun === true ? { wouldCall: step.detail.wouldCall } : {}),
      });
    }
  }
  for (const outcome of run.outcomes) {
    if (outcome.kind === "parked") {
      steps.push({
        node: outcome.nodeId,
        nodeType: outcome.nodeType,
        name: names.get(outcome.nodeId) ?? outcome.nodeId,
        result: "parked",
        park: outcome.park,
      });
    } else if (outcome.kind === "deliver") {
      steps.push({
        node: webhook.id,
        nodeType: "delivery",
        name: webhook.targetUrl === "" ? webhook.name : `${webhook.name} -> ${webhook.targetUrl}`,
        result: "would_deliver",
        payload: outcome.payload,
      });
    }
  }
  const matched = new Set(
    steps
      .filter(
        (s) => s.nodeType !== "webhook" && (s.result === "passed" || s.result === "forwarded"),
      )
      .map((s) => s.node),
  );
  return {
    steps,
    finalStatus: predictFinalStatus(run.outcomes),
    matchedNodes: matched.size,
  };
}
