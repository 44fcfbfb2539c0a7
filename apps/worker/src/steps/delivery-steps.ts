import type { DeliveryPhase } from "@hookflow/domain";
import type { SendResult } from "../delivery/http-sender.js";
import type { WorkerServices } from "../services.js";

/**
 * Steps of the delivery engine itself: the webhook's payload filters (`nodeType: "webhook"`) and
 * each attempt at a target (`nodeType: "delivery"`, `nodeId`: the webhook id), then `done` when
 * the event settles. A retry is not the end: only delivered, failed and filtered are `done`.
 */
type Phase = DeliveryPhase;

const targetName = (phase: Phase) => (phase === "fallback" ? "fallback target" : "target");

export function reportPayloadFilter(
  services: WorkerServices,
  input: { eventId: string; webhookId: string; passed: boolean; durationMs: number },
): void {
  const { eventId, webhookId } = input;
  const node = { nodeType: "webhook", nodeId: webhookId, nodeName: "payload filters" };
  services.steps.step(eventId, { ...node, status: "running" });
  services.steps.step(eventId, {
    ...node,
    status: input.passed ? "success" : "blocked",
    durationMs: input.durationMs,
    ...(input.passed ? {} : { error: "payload filters did not match" }),
  });
  if (!input.passed) services.steps.done(eventId, { deliveryStatus: "filtered" });
}

export function reportAttemptStarted(
  services: WorkerServices,
  input: { eventId: string; webhookId: string; phase: Phase },
): void {
  services.steps.step(input.eventId, {
    nodeType: "delivery",
    nodeId: input.webhookId,
    nodeName: targetName(input.phase),
    status: "running",
  });
}

/** The circuit is open: the attempt was not made (blocked); the event waits for the cooldown. */
export function reportCircuitOpen(
  services: WorkerServices,
  input: { eventId: string; webhookId: string },
): void {
  const node = { nodeType: "delivery", nodeId: input.webhookId, nodeName: targetName("primary") };
  services.steps.step(input.eventId, { ...node, status: "running" });
  services.steps.step(input.eventId, { ...node, status: "blocked", error: "circuit open" });
}

export interface AttemptSettled {
  eventId: string;
  webhookId: string;
  phase: Phase;
  result: SendResult;
  success: boolean;
  error: string | null;
  /** What the event became: `delivered` and `failed` end the pipeline. */
  outcome: string;
  /** False when someone else settled the event meanwhile (cancel): no `done` from here. */
  eventUpdated: boolean;
  /** Steps to report after the attempt's and before `done` (the actions the outcome fired). */
  beforeDone?: () => void;
}

export function reportAttemptSettled(services: WorkerServices, input: AttemptSettled): void {
  const { eventId, result } = input;
  services.steps.step(eventId, {
    nodeType: "delivery",
    nodeId: input.webhookId,
    nodeName: targetName(input.phase),
    status: input.success ? "success" : "error",
    statusCode: result.statusCode,
    durationMs: result.latencyMs,
    ...(input.success || input.error === null ? {} : { error: input.error }),
  });
  if (!input.eventUpdated) return;
  if (input.outcome !== "delivered" && input.outcome !== "failed") return;
  input.beforeDone?.();
  services.steps.done(eventId, {
    deliveryStatus: input.outcome,
    statusCode: result.statusCode,
    latencyMs: result.latencyMs,
    response: result.responseBody,
  });
}

/** The event settled without an attempt (nothing to deliver, fallback removed). */
export function reportSettledWithoutAttempt(
  services: WorkerServices,
  input: { eventId: string; deliveryStatus: "delivered" | "failed" },
): void {
  services.steps.done(input.eventId, { deliveryStatus: input.deliveryStatus });
}
