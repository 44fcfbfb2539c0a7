import type { Metrics } from "@hookflow/observability";
import { isToChild, SUPERVISED_ENV, type ToParent } from "./messages.js";

/** True in a worker process a `hookflow start` forked (it reports to that parent over IPC). */
export function isSupervisedChild(): boolean {
  return process.env[SUPERVISED_ENV] === "1" && typeof process.send === "function";
}

function tell(message: ToParent): void {
  if (process.connected) process.send?.(message);
}

/** Answers the parent's metrics requests with this process's registry (the parent serves them). */
export function serveMetricsToParent(metrics: Metrics): void {
  process.on("message", (message: unknown) => {
    if (!isToChild(message)) return;
    void metrics.registry.getMetricsAsJSON().then((snapshot) => {
      tell({ type: "metrics", requestId: message.requestId, snapshot });
    });
  });
}

export function announceReady(): void {
  tell({ type: "ready" });
}

/**
 * Resolves when the parent closes the channel: it is stopping, or it died (even by SIGKILL), so
 * a worker process never outlives its `hookflow start`.
 */
export function parentGone(): Promise<"disconnect"> {
  return new Promise((resolve) => {
    if (!process.connected) resolve("disconnect");
    else process.once("disconnect", () => resolve("disconnect"));
  });
}
