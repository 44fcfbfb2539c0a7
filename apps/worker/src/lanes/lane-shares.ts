import { LANE_WEIGHTS, PRIORITIES, type Priority } from "@hookflow/queue";

/** What a lane has to do right now: jobs waiting in Redis and jobs this process is running. */
export interface LaneDemand {
  waiting: number;
  running: number;
}

/**
 * How many delivery slots each lane gets, out of `total`: work-conserving and priority-ordered.
 * A lane with nothing waiting keeps what it runs plus one slot, so new work is picked up at once
 * (that spare slot is not taken from the others: an idle lane's first job may run over `total`
 * until the next tick); the rest goes to the lanes with work waiting, by weight (priority 1 the
 * largest share), a lane never getting more than it can use (running + waiting), its unused share
 * flowing to the others. What no lane with work can use is split evenly among the lanes with
 * nothing waiting, on top of their one slot: a burst that reaches an idle lane between two ticks
 * (an ingress batch enqueues its events at once) is fetched at once, instead of one job per
 * finished job until the next tick.
 * With a backlog in every lane the shares are the weights; with a backlog in one lane that lane
 * gets every slot the others do not use. Pure: the lane scheduler calls it on each tick.
 */
export function laneShares(
  total: number,
  demand: Readonly<Record<Priority, LaneDemand>>,
): Record<Priority, number> {
  const shares = {} as Record<Priority, number>;
  let left = total;
  const hungry: Priority[] = [];
  for (const lane of PRIORITIES) {
    const { waiting, running } = demand[lane];
    if (waiting > 0) {
      hungry.push(lane);
      shares[lane] = 0;
    } else {
      shares[lane] = running + 1;
      left -= running;
    }
  }
  // Water-filling by weight: each round gives every lane still hungry its weighted part of what
  // is left, capped at what it can use; lanes that hit their cap drop out and the rest share on.
  let open = hungry.filter((lane) => wanted(lane) > 0);
  while (left > 0 && open.length > 0) {
    const weight = open.reduce((sum, lane) => sum + LANE_WEIGHTS[lane], 0);
    let given = 0;
    for (const lane of open) {
      const part = Math.max(1, Math.floor((left * LANE_WEIGHTS[lane]) / weight));
      const grant = Math.min(part, wanted(lane), left - given);
      shares[lane] += grant;
      given += grant;
    }
    left -= given;
    open = open.filter((lane) => wanted(lane) > 0);
    if (given === 0) break;
  }
  // A lane with work always has a slot, even when the others fill `total`.
  for (const lane of hungry) shares[lane] = Math.max(1, shares[lane]);
  // The slots left over are headroom for the lanes with nothing waiting.
  const idle = PRIORITIES.filter((lane) => demand[lane].waiting === 0);
  if (left > 0 && idle.length > 0) {
    const headroom = Math.floor(left / idle.length);
    for (const lane of idle) shares[lane] += headroom;
  }
  return shares;

  function wanted(lane: Priority): number {
    const { waiting, running } = demand[lane];
    return waiting + running - shares[lane];
  }
}
