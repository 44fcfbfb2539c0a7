import type { ServiceContext } from "../context.js";

/**
 * Tells every worker that a target changed, so the targets they cached per webhook are dropped.
 * It rides the graph-changed channel (`{nodeId}` naming the target; workers' graph caches ignore
 * ids of no node family). The write is committed; a Redis failure is logged (caches expire).
 */
export async function publishTargetChanged(
  ctx: Pick<ServiceContext, "redis" | "keys" | "logger">,
  targetId: string,
): Promise<void> {
  try {
    await ctx.redis.publish(ctx.keys.graphChangedChannel, JSON.stringify({ nodeId: targetId }));
  } catch (error) {
    ctx.logger.error({ err: error, targetId }, "could not publish target change");
  }
}
