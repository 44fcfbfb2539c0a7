import { parseStepEntry, type RedisKeys } from "@hookflow/queue";
import type { Redis } from "ioredis";

/**
 * True when the event's replay buffer holds its `done` at or before `seq`: a client resuming
 * from there has seen the end already. It is answered 204, which tells EventSource to stop
 * reconnecting.
 */
export async function endedBefore(
  deps: { redis: Redis; keys: RedisKeys },
  eventId: string,
  seq: number,
): Promise<boolean> {
  const raws = await deps.redis.lrange(deps.keys.stepBuffer(eventId), 0, -1);
  return raws.some((raw) => {
    const entry = parseStepEntry(raw);
    return entry !== null && entry.seq <= seq && entry.message.kind === "done";
  });
}
