import type { MetricsSnapshot } from "@hookflow/observability";

/**
 * What a `hookflow start` and its worker processes say to each other over the IPC channel of
 * `child_process.fork`. The channel closing (the parent stopping, or dying) tells the child to
 * shut down.
 */
export type ToParent =
  | { type: "ready" }
  | { type: "metrics"; requestId: number; snapshot: MetricsSnapshot };

export type ToChild = { type: "metrics"; requestId: number };

/** Set in a worker process's environment by the `hookflow start` that forked it. */
export const SUPERVISED_ENV = "HOOKFLOW_SUPERVISED_WORKER";

export function isToParent(message: unknown): message is ToParent {
  if (typeof message !== "object" || message === null || !("type" in message)) return false;
  return message.type === "ready" || message.type === "metrics";
}

export function isToChild(message: unknown): message is ToChild {
  return (
    typeof message === "object" &&
    message !== null &&
    "type" in message &&
    message.type === "metrics" &&
    "requestId" in message &&
    typeof message.requestId === "number"
  );
}
