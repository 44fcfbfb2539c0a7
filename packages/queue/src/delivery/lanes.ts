/** Priority 1 is the highest (see docs/decisions.md, "Delivery"). */
export const PRIORITIES = [1, 2, 3, 4, 5] as const;
export type Priority = (typeof PRIORITIES)[number];

/**
 * Each priority lane's share of a worker's delivery slots when every lane has work waiting; a
 * lane with nothing waiting lends its slots to the others (see the worker's lane scheduler), so
 * a backlog in a low lane never delays priority 1 and no slot idles while work waits.
 */
export const LANE_WEIGHTS: Record<Priority, number> = {
  1: 0.4,
  2: 0.22,
  3: 0.18,
  4: 0.12,
  5: 0.08,
};

/** The priority lane of a stored priority (clamped to 1..5). */
export function laneOf(priority: number): Priority {
  return Math.min(5, Math.max(1, Math.round(priority))) as Priority;
}

/** One BullMQ queue per lane. */
export function deliveryQueueName(priority: number): string {
  return `deliver-p${laneOf(priority)}`;
}
