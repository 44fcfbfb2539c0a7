import type { SendResult } from "../delivery/http-sender.js";
import type { WorkerServices } from "../services.js";

/**
 * Steps of additional-target deliveries on the event's stream: `nodeType` `additionalTarget`,
 * `nodeId` the target's id; `targetFailed` for the notification sent to the primary URL. They
 * never end the event's stream (its `done` is the primary's).
 */
interface TargetStep {
  eventId: string;
  targetId: string;
  targetName: string;
}

export function reportTargetStarted(services: WorkerServices, input: TargetStep): void {
  services.steps.step(input.eventId, {
    nodeType: "additionalTarget",
    nodeId: input.targetId,
    nodeName: input.targetName,
    status: "running",
  });
}

export function reportTargetAttempt(
  services: WorkerServices,
  input: TargetStep & { result: SendResult; success: boolean; error: string | null },
): void {
  services.steps.step(input.eventId, {
    nodeType: "additionalTarget",
    nodeId: input.targetId,
    nodeName: input.targetName,
    status: input.success ? "success" : "error",
    statusCode: input.result.statusCode,
    durationMs: input.result.latencyMs,
    ...(input.error === null ? {} : { error: input.error }),
  });
}

export function reportTargetFailedNotice(
  services: WorkerServices,
  input: TargetStep & { result: SendResult; success: boolean; error: string | null },
): void {
  const node = { nodeType: "targetFailed", nodeId: input.targetId, nodeName: input.targetName };
  services.steps.step(input.eventId, { ...node, status: "running" });
  services.steps.step(input.eventId, {
    ...node,
    status: input.success ? "success" : "error",
    statusCode: input.result.statusCode,
    durationMs: input.result.latencyMs,
    ...(input.error === null ? {} : { error: input.error }),
  });
}
