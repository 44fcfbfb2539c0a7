import { type Database, findOverdueTargetDeliveries } from "@hookflow/db";
import { type DeliveryQueues, enqueueDeliveries, jobIdOf, laneOf } from "@hookflow/queue";

/**
 * Target deliveries (and `target.failed` notices) Postgres holds as due whose job is gone (a crash
 * between the fan-out's commit and its enqueue, Redis restarted empty): enqueued again. A row
 * whose job still waits (a retry's delay) is left alone. Returns how many jobs it re-created.
 */
export async function sweepTargetDeliveries(options: {
  db: Database;
  queues: DeliveryQueues;
  before: Date;
  limit: number;
}): Promise<number> {
  const overdue = await findOverdueTargetDeliveries(options.db, {
    dueBefore: options.before,
    limit: options.limit,
  });
  if (overdue.length === 0) return 0;
  const items = overdue.map((row) => {
    const open = row.status === "pending" || row.status === "retrying";
    const data = {
      eventId: row.eventId,
      webhookId: row.webhookId,
      targetId: row.targetId,
      ...(open ? {} : { targetFailed: true as const }),
    };
    return { priority: row.priority, data };
  });
  const jobs = await Promise.all(
    items.map((item) => options.queues.get(laneOf(item.priority))?.getJob(jobIdOf(item.data))),
  );
  const lost = items.filter((_, index) => jobs[index] === undefined);
  if (lost.length > 0) await enqueueDeliveries(options.queues, lost);
  return lost.length;
}
