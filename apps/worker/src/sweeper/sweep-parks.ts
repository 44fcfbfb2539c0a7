import { type Database, findParksToResume, type ParkCursor } from "@hookflow/db";
import { type DeliveryQueues, type ResumeNowOutcome, resumeParkNow } from "@hookflow/queue";

export interface ParkSweep {
  /** Parks that had no job (one was added) or only a delayed one (it was promoted). */
  resumed: number;
  /** Parks whose job could not be checked (Redis errors); the next pass over them retries. */
  failed: unknown[];
  /** Where the next sweep goes on; undefined to start again from the oldest. */
  next: ParkCursor | undefined;
}

const RESUMED: ReadonlySet<ResumeNowOutcome> = new Set(["added", "promoted"]);

/**
 * Re-creates the resume jobs of parked paths that lost theirs (Redis restarted empty, a crash
 * between the commit and the enqueue, a decision whose wake-up failed): overdue waiting parks and
 * decided parks not yet applied, a page at a time after `after`. Each park goes through
 * `resumeParkNow`, which looks for its job in every lane: a park with a waiting or running job is
 * left alone, one whose job is still delayed although overdue runs now, one without a job gets
 * one.
 */
export async function sweepParks(options: {
  db: Database;
  queues: DeliveryQueues;
  before: Date;
  limit: number;
  after?: ParkCursor;
}): Promise<ParkSweep> {
  const parks = await findParksToResume(options.db, {
    before: options.before,
    limit: options.limit,
    ...(options.after ? { after: options.after } : {}),
  });
  const last = parks.at(-1);
  const next = parks.length < options.limit || !last ? undefined : { due: last.due, id: last.id };
  const outcomes = await Promise.allSettled(
    parks.map((park) =>
      resumeParkNow(options.queues, {
        eventId: park.eventId,
        webhookId: park.webhookId,
        parkId: park.id,
        priority: park.priority,
      }),
    ),
  );
  let resumed = 0;
  const failed: unknown[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === "rejected") failed.push(outcome.reason);
    else if (RESUMED.has(outcome.value)) resumed += 1;
  }
  return { resumed, failed, next };
}
