import { sameOwnerScope } from "@hookflow/domain";
import { createDryRunPorts, predictFinalStatus, runPipeline } from "@hookflow/pipeline";
import type { WorkerServices } from "../services.js";

const TOOL_ARGUMENTS_MAX_LENGTH = 64 * 1024;

export interface ToolResult {
  /** The `tool` message content returned to the model (JSON text). */
  content: string;
  status: string;
}

function answer(body: Record<string, unknown>): ToolResult {
  return { content: JSON.stringify(body), status: String(body.status) };
}

/**
 * A model's call of a tool webhook (docs/decisions.md, AI nodes): rights and consent are checked
 * now (the webhook must be of the node's organization or personal space and accept internal
 * calls), then the webhook's pipeline runs here on the call's arguments, with side effects off
 * as in a dry run (its payload filters, filters, transforms and validators run; delays,
 * approvals and AI nodes inside it do not wait or call; nothing is stored or delivered). The
 * model gets `{status, output}` (the payload the pipeline would deliver) or `{status, error}`.
 */
export async function runTool(
  services: WorkerServices,
  owner: { ownerId: string; organizationId: string | null },
  call: { webhookId: string; eventId: string; nodeId: string; arguments: string },
): Promise<ToolResult> {
  const webhook = await services.webhooks.get(call.webhookId);
  if (!webhook) return answer({ status: "failed", error: `webhook ${call.webhookId} is gone` });
  if (!sameOwnerScope(webhook, owner) || !webhook.acceptsInternalCalls) {
    return answer({
      status: "blocked",
      error: `webhook ${call.webhookId} does not accept internal calls from this node`,
    });
  }
  if (call.arguments.length > TOOL_ARGUMENTS_MAX_LENGTH) {
    return answer({ status: "failed", error: "the arguments are longer than 64 KiB" });
  }
  let payload: unknown;
  try {
    payload = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    return answer({ status: "failed", error: "the arguments are not JSON" });
  }
  const graph = await services.pipeline.graphs.get(call.webhookId);
  if (graph.broken) return answer({ status: "failed", error: graph.broken });
  const run = await runPipeline(
    {
      eventId: call.eventId,
      webhookId: call.webhookId,
      eventType: null,
      runId: `ai:${call.nodeId}`,
      graph: graph.graph,
      order: graph.order,
      start: { kind: "webhook", payload, payloadFilters: webhook.payloadFilters },
    },
    createDryRunPorts({
      transform: services.pipeline.transform,
      patterns: services.pipeline.patterns,
      delayScale: services.pipeline.delayScale,
    }),
  );
  const status = predictFinalStatus(run.outcomes);
  const delivered = run.outcomes.find((o) => o.kind === "deliver");
  const failure = run.outcomes.find((o) => o.kind === "failed" || o.kind === "blocked");
  if (delivered) return answer({ status, output: delivered.payload });
  const error =
    failure?.kind === "failed"
      ? failure.error
      : failure?.kind === "blocked"
        ? failure.reason
        : undefined;
  return answer({ status, ...(error ? { error } : {}) });
}
