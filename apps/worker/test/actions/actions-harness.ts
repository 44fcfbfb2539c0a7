import { listActionRuns, listEventSteps } from "@hookflow/db";
import { waitUntil } from "@hookflow/testing";
import type { WorkerHarness } from "../harness.js";

const ended = (status: string) => status === "success" || status === "failed";

/** The event's action runs once `count` of them have ended (success or failed). */
export async function waitForActionRuns(h: WorkerHarness, eventId: string, count: number) {
  return waitUntil(
    async () => {
      const runs = await listActionRuns(h.services.db, eventId);
      return runs.filter((run) => ended(run.status)).length >= count ? runs : undefined;
    },
    { timeoutMs: 20_000, describe: () => `${count} finished action runs of ${eventId}` },
  );
}

/** `nodeType:status` of the event's recorded steps of action nodes, oldest first. */
export async function actionSteps(h: WorkerHarness, eventId: string): Promise<string[]> {
  const steps = await listEventSteps(h.database.db, eventId);
  return steps
    .filter((step) => step.nodeType.endsWith("Action"))
    .map((step) => `${step.nodeType}:${step.status}`);
}
