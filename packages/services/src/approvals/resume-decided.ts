import type { DecidedApproval } from "@hookflow/db";
import { resumeParkNow } from "@hookflow/queue";
import type { ServiceContext } from "../context.js";

/** How much of a waiting payload lists and confirmation pages show. */
export const PREVIEW_CHARS = 1000;

/**
 * Makes decided paths continue now (their timeout job is promoted, or a job is added). The
 * decision is committed already: if Redis fails here, the worker's sweeper finds the decided,
 * unapplied park and resumes it, so the failure is logged, not answered.
 */
export async function resumeDecided(
  ctx: Pick<ServiceContext, "queues" | "logger">,
  decided: readonly DecidedApproval[],
): Promise<void> {
  await Promise.all(
    decided.map(async (park) => {
      try {
        await resumeParkNow(ctx.queues, {
          eventId: park.eventId,
          webhookId: park.webhookId,
          parkId: park.parkId,
          priority: park.priority,
        });
      } catch (error) {
        ctx.logger.warn(
          { err: error, eventId: park.eventId, parkId: park.parkId },
          "could not resume a decided approval now; the sweeper will",
        );
      }
    }),
  );
}
