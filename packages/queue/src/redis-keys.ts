/**
 * Every Redis key, channel and BullMQ queue Hookflow uses lives under one prefix
 * (`HOOKFLOW_REDIS_PREFIX`), so two installations can share a Redis.
 */
export function redisKeys(prefix: string) {
  return {
    /** BullMQ's own `prefix` option. */
    bullPrefix: prefix,
    /** Pub/sub: a webhook was updated, rotated or deleted; payload `{webhookId, ingressToken?}`. */
    webhookChangedChannel: `${prefix}:chan:webhook-changed`,
    /**
     * Pub/sub: a processing node or canvas changed (payload `{nodeId}`); workers drop their cached
     * webhook graphs.
     */
    graphChangedChannel: `${prefix}:chan:graph-changed`,
    /** Merge-node arrivals of one event at one node (a Redis hash written by a Lua script). */
    mergeArrivals: (eventId: string, nodeId: string) => `${prefix}:merge:${eventId}:${nodeId}`,
    /** Pub/sub: steps of every event (one subscription per stream process). */
    stepsChannel: `${prefix}:chan:steps`,
    stepBuffer: (eventId: string) => `${prefix}:steps:${eventId}`,
    /** Pub/sub: events of every webhook as workers start them (`webhook-feed.ts`). */
    webhookFeedChannel: `${prefix}:chan:webhook-feed`,
    /** A webhook's recent event starts (a Redis stream; its ids are `Last-Event-ID`s). */
    webhookFeed: (webhookId: string) => `${prefix}:feed:${webhookId}`,
    dedup: (webhookId: string, key: string) => `${prefix}:dedup:${webhookId}:${key}`,
    circuit: (webhookId: string) => `${prefix}:circuit:${webhookId}`,
    rateWindow: (scope: string) => `${prefix}:rate:${scope}`,
    loginAttempts: (subject: string) => `${prefix}:login:${subject}`,
  };
}
export type RedisKeys = ReturnType<typeof redisKeys>;
