import { claimActionRun, finishActionRun, loadActionEventContext } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import {
  type ActionFamilyKey,
  FAMILIES,
  isActionFamily,
  type PipelineNode,
} from "@hookflow/pipeline";
import type { ActionJobData } from "@hookflow/queue";
import type { WorkerServices } from "../services.js";
import { truncateUtf8 } from "../steps/truncate.js";
import type { ActionExecutor, ActionResult, ActionTemplateContext } from "./action-types.js";
import { ACTION_EXECUTORS } from "./executors/index.js";
import { parseResponseBody } from "./render-templates.js";

/** What became of one try; the action worker maps `retry` to a thrown error (BullMQ backs off). */
export type ActionTryOutcome =
  | { kind: "done"; status: "success" | "failed" | "skipped"; reason?: string }
  | { kind: "retry"; error: string };

const RESPONSE_LIMIT = 4096;

/**
 * The action from the webhook's cached graph (no query per run; node writes drop the cache), if
 * it is still an action linked to the webhook; undefined when it was deleted or unlinked since.
 */
async function loadAction(
  services: WorkerServices,
  data: ActionJobData,
): Promise<PipelineNode<ActionFamilyKey> | undefined> {
  const graph = await services.pipeline.graphs.get(data.webhookId);
  const action = graph.actions.find((node) => node.id === data.actionId);
  return action && isActionFamily(action.family)
    ? (action as PipelineNode<ActionFamilyKey>)
    : undefined;
}

function templateContext(
  loaded: NonNullable<Awaited<ReturnType<typeof loadActionEventContext>>>,
): ActionTemplateContext {
  return {
    payload: parseResponseBody(loaded.body),
    response: {
      status: loaded.lastAttempt?.statusCode ?? 0,
      body: loaded.lastAttempt ? parseResponseBody(loaded.lastAttempt.responseBody) : null,
    },
    event: { id: loaded.eventId, type: loaded.eventType },
    webhook: { id: loaded.webhookId, name: loaded.webhookName },
  };
}

/**
 * One try of an action run (docs/decisions.md, Post-delivery actions): claim the (action, event)
 * run, run the family's executor, record the try and its steps in one statement, stream them.
 * A run that already ended is never run again; an email run interrupted by a crash is not
 * resent (at most one mail), any other is tried again.
 */
export async function processAction(
  services: WorkerServices,
  data: ActionJobData,
  tryInfo: { isLastTry: boolean },
): Promise<ActionTryOutcome> {
  const action = await loadAction(services, data);
  if (!action) return { kind: "done", status: "skipped", reason: "action gone or unlinked" };
  const claim = await claimActionRun(services.db, {
    id: newId("actionRun"),
    actionId: action.id,
    eventId: data.eventId,
    webhookId: data.webhookId,
    family: action.family,
    trigger: data.trigger,
    now: services.now(),
  });
  if (claim.kind !== "claimed") return { kind: "done", status: "skipped", reason: claim.kind };
  // Read only once the run is claimed: a repeated trigger of a finished run costs one statement.
  const loaded = await loadActionEventContext(services.db, data.eventId);
  if (!loaded) return { kind: "done", status: "skipped", reason: "event gone" };

  const node = {
    nodeType: FAMILIES[action.family].nodeType,
    nodeId: action.id,
    nodeName: action.name,
  };
  const steps: Array<Record<string, unknown>> = [];
  const emit = (step: Record<string, unknown>, stream: boolean) => {
    const full = { eventId: data.eventId, ...node, ...step, at: services.now().toISOString() };
    steps.push(full);
    if (stream) services.steps.stepJson(data.eventId, JSON.stringify(full));
  };
  // The first try's `running` went out with the delivery's steps (fire-actions.ts).
  emit({ status: "running" }, claim.tries > 1);

  const started = performance.now();
  let result: ActionResult;
  if (claim.interrupted && action.family === "emailAction") {
    result = {
      ok: false,
      error: "interrupted while sending; an email is never sent twice",
      retryable: false,
    };
  } else {
    const executor = ACTION_EXECUTORS[action.family] as ActionExecutor<ActionFamilyKey>;
    result = await executor.run({
      action,
      context: templateContext(loaded),
      trigger: data.trigger,
      runId: claim.runId,
      ports: services.actions.ports,
    });
  }
  const durationMs = Math.round(performance.now() - started);
  const retry = !result.ok && result.retryable && !tryInfo.isLastTry;
  const status = result.ok ? "success" : retry ? "retrying" : "failed";
  emit(
    {
      status: result.ok ? "success" : "error",
      durationMs,
      ...(result.statusCode === undefined ? {} : { statusCode: result.statusCode }),
      ...(result.ok ? {} : { error: result.error }),
    },
    true,
  );
  await finishActionRun(services.db, {
    runId: claim.runId,
    eventId: data.eventId,
    status,
    statusCode: result.statusCode ?? null,
    response: result.response === undefined ? null : truncateUtf8(result.response, RESPONSE_LIMIT),
    error: result.ok ? null : result.error,
    durationMs,
    stepsJson: JSON.stringify(steps),
    now: services.now(),
  });
  if (retry) return { kind: "retry", error: result.ok ? "" : result.error };
  return { kind: "done", status: result.ok ? "success" : "failed" };
}
