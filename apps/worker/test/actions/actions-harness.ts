import { credentials, listActionRuns, listEventSteps } from "@hookflow/db";
import { createKeyRing, credentialSealContext, newId } from "@hookflow/domain";
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

/** A credential stored as the API stores it (data sealed with the worker's key ring). */
export async function insertCredential(
  h: WorkerHarness,
  type: string,
  data: unknown,
  ownerId = h.ownerId,
): Promise<string> {
  const id = newId("credential");
  const ring = createKeyRing(h.services.config.encryptionKeys);
  await h.database.db.insert(credentials).values({
    id,
    ownerId,
    organizationId: null,
    name: type,
    type,
    data: ring.seal(JSON.stringify(data), credentialSealContext(id)),
  });
  return id;
}
