import { type Database, findParksToResume } from "@hookflow/db";
import { type DeliveryQueues, enqueueResume, jobIdOf, type Priority } from "@hookflow/queue";

function laneOf(priority: number): Priority {
  return Math.min(5, Math.max(1, Math.round(priority))) as Priority;
}

/**
 * Re-creates the resume jobs of parked paths that lost theirs (Redis restarted empty, a crash
 * between the commit and the enqueue): overdue waiting parks and decided parks not yet applied.
 * Returns how many jobs it created.
 */
export async function sweepParks(options: {
  db: Database;
  queues: DeliveryQueues;
  before: Date;
  limit: number;
}): Promise<number> {
  const parks = await findParksToResume(options.db, {
    before: options.before,
    limit: options.limit,
  });
  if (parks.length === 0) return 0;
  const jobs = await Promise.all(
    parks.map((park) =>
      options.queues
        .get(laneOf(park.priority))
        ?.getJob(jobIdOf({ eventId: park.eventId, webhookId: park.webhookId, parkId: park.id })),
    ),
  );
  const lost = parks.filter((_, index) => jobs[index] === undefined);
  await Promise.all(
    lost.map((park) =>
      enqueueResume(options.queues, {
        eventId: park.eventId,
        webhookId: park.webhookId,
        parkId: park.id,
        priority: park.priority,
      }),
    ),
  );
  return lost.length;
}
