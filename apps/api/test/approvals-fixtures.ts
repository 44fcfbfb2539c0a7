import { eventParks } from "@hookflow/db";
import { newPrefixedId } from "@hookflow/domain";
import { deliveryQueueName, enqueueResume, jobIdOf } from "@hookflow/queue";
import type { ApiHarness } from "./harness.js";
import { insertEventRow } from "./nodes-fixtures.js";

/**
 * Parks written the way the worker writes them (a waiting approval row, resume_at = timeout, a
 * delayed resume job for the timeout), so the approval routes are tested without a worker.
 */

type Db = ApiHarness["database"]["db"];

export interface SeededPark {
  eventId: string;
  parkId: string;
  webhookId: string;
}

export async function parkAtGate(
  api: ApiHarness,
  input: {
    webhookId: string;
    nodeId: string;
    payload?: unknown;
    priority?: number;
    /** Also enqueue the delayed timeout job (default true). */
    withTimeoutJob?: boolean;
    /** The park's run and the event's current run (default both "run_1"). */
    parkRun?: string;
    eventRun?: string;
    createdAt?: Date;
  },
): Promise<SeededPark> {
  const db = api.database.db;
  const priority = input.priority ?? 2;
  const payload = input.payload ?? { order: 1 };
  const eventId = await insertEventRow(db, input.webhookId, payload, {
    priority,
    awaitingApproval: true,
    parkedAt: { nodeType: "approval", nodeId: input.nodeId },
    pipelineRun: input.eventRun ?? "run_1",
  });
  const parkId = newPrefixedId("prk");
  const timeoutAt = new Date(Date.now() + 3_600_000);
  await db.insert(eventParks).values({
    id: parkId,
    eventId,
    webhookId: input.webhookId,
    runId: input.parkRun ?? "run_1",
    nodeType: "approval",
    nodeId: input.nodeId,
    kind: "approval",
    payload: JSON.stringify(payload),
    status: "waiting",
    resumeAt: timeoutAt,
    ...(input.createdAt ? { createdAt: input.createdAt } : {}),
  });
  if (input.withTimeoutJob ?? true) {
    await enqueueResume(api.services.queues, {
      eventId,
      webhookId: input.webhookId,
      parkId,
      priority,
      delayMs: 3_600_000,
    });
  }
  return { eventId, parkId, webhookId: input.webhookId };
}

export async function parkRow(db: Db, parkId: string) {
  const row = await db.query.eventParks.findFirst({ where: (t, { eq }) => eq(t.id, parkId) });
  if (!row) throw new Error(`no park ${parkId}`);
  return row;
}

/** State of the park's resume job in a lane (`unknown` when it has none there). */
export async function resumeJobState(
  api: ApiHarness,
  park: SeededPark,
  priority = 2,
): Promise<string> {
  const queue = [...api.services.queues.values()].find(
    (q) => q.name === deliveryQueueName(priority),
  );
  if (!queue) throw new Error(`no lane ${priority}`);
  return queue.getJobState(jobIdOf({ ...park }));
}
