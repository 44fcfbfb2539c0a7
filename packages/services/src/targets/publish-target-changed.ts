import type { ApiServices } from "../../services.js";

/**
 * Tells every worker that a target changed, so the targets they cached per webhook are dropped.
 * It rides the graph-changed channel (`{nodeId}` naming the target; workers' graph caches ignore
 * ids of no node family). The write is committed; a Redis failure is logged (caches expire).
 */
export async function publishTargetChanged(services: ApiServices, targetId: string): Promise<void> {
  try {
    await services.redis.publish(
      services.keys.graphChangedChannel,
      JSON.stringify({ nodeId: targetId }),
    );
  } catch (error) {
    services.logger.error({ err: error, targetId }, "could not publish target change");
  }
}
