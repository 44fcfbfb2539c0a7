import type { Redis } from "ioredis";

/**
 * Resolves once a SUBSCRIBE on `redis` cannot break its connection's handshake.
 *
 * While ioredis is connected but not yet ready it writes SUBSCRIBE at once (other commands wait
 * in its offline queue). Redis then switches the connection to subscriber mode and refuses the
 * client's ready check (INFO) that follows, so ioredis resets the connection, and whatever was
 * published until it has subscribed again is lost. Commands asked for in any other state are
 * safe: they are sent after the ready check, or right away on a ready connection.
 */
function handshakeDone(redis: Redis): Promise<void> {
  if (redis.status !== "connect") return Promise.resolve();
  return new Promise((resolve) => {
    const settle = () => {
      redis.off("ready", settle);
      redis.off("end", settle);
      resolve();
    };
    redis.once("ready", settle);
    // A connection that ends for good answers the SUBSCRIBE sent next with its error.
    redis.once("end", settle);
  });
}

/** Subscribes `redis` to `channels` once doing so cannot reset its connection. */
export async function subscribeAfterHandshake(redis: Redis, ...channels: string[]): Promise<void> {
  await handshakeDone(redis);
  await redis.subscribe(...channels);
}
