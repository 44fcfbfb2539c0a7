import type { WebhookJobRef } from "@hookflow/db";
import { type DeliverJobData, jobIdOf, laneQueue } from "@hookflow/queue";
import type { ServiceContext } from "../context.js";

/**
 * Jobs a webhook delete removes from the queues at most (docs/decisions.md, "Webhook delete"):
 * past this, the remaining jobs of a huge backlog find their event gone and end without a request.
 */
export const WEBHOOK_DELETE_MAX_JOBS = 10_000;

/** Removes the waiting and delayed jobs named; an active (locked) job is left to end as gone. */
export async function removeWebhookJobs(
  ctx: Pick<ServiceContext, "queues" | "logger">,
  webhookId: string,
  refs: readonly WebhookJobRef[],
): Promise<number> {
  let removed = 0;
  const BATCH = 500;
  try {
    for (let i = 0; i < refs.length; i += BATCH) {
      const results = await Promise.all(
        refs.slice(i, i + BATCH).map((ref) => {
          const data: DeliverJobData = {
            eventId: ref.eventId,
            webhookId,
            ...(ref.kind === "park" ? { parkId: ref.parkId } : {}),
            ...(ref.kind === "target" ? { targetId: ref.targetId } : {}),
            ...(ref.kind === "target" && ref.targetFailed ? { targetFailed: true as const } : {}),
          };
          return laneQueue(ctx.queues, ref.priority).remove(jobIdOf(data));
        }),
      );
      removed += results.filter((code) => code === 1).length;
    }
  } catch (error) {
    // The webhook is deleted; jobs left behind end as gone when they run.
    ctx.logger.warn({ err: error, webhookId }, "could not remove every job of a deleted webhook");
  }
  return removed;
}
