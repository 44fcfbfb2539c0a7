import { type DbHandle, findWebhookName } from "@hookflow/db";
import { type Mailer, sendApprovalRequest } from "@hookflow/mail";
import type { Logger } from "@hookflow/observability";
import type { FamilyConfig, PipelineNode } from "@hookflow/pipeline";
import type { StoredPark } from "./build-apply-write.js";

/** Mails an approval gate's `notifyEmails` when a path parks there. */
export interface ApprovalNotifier {
  notify: (
    input: { eventId: string; webhookId: string; nodes: ReadonlyMap<string, PipelineNode> },
    parks: StoredPark[],
  ) => Promise<void>;
}

/**
 * One mail per parked path, with signed single-use approve and reject links valid until the
 * gate's timeout, through the shared mail sender (SMTP, or the local outbox without `SMTP_URL`).
 * Never throws: a mail problem is recorded by the mailer and must not fail the event.
 */
export function createApprovalNotifier(options: {
  db: DbHandle;
  mailer: Mailer;
  secret: string;
  publicBaseUrl: string;
  logger: Logger;
}): ApprovalNotifier {
  return {
    notify: async (input, parks) => {
      const webhookName = (await findWebhookName(options.db, input.webhookId)) ?? input.webhookId;
      await Promise.all(
        parks.map(async (park) => {
          const node = input.nodes.get(park.planned.outcome.nodeId);
          if (node?.family !== "approval") return;
          const config = node.config as FamilyConfig<"approval">;
          try {
            await sendApprovalRequest({
              mailer: options.mailer,
              secret: options.secret,
              publicBaseUrl: options.publicBaseUrl,
              node: {
                id: node.id,
                name: node.name,
                notifyEmails: config.notifyEmails,
                autoActionOnTimeout: config.autoActionOnTimeout,
              },
              webhookName,
              eventId: input.eventId,
              parkId: park.id,
              payload: JSON.stringify(park.planned.outcome.payload ?? null),
              timeoutAt: new Date(park.planned.outcome.resumeAt),
            });
          } catch (error) {
            options.logger.warn(
              { err: error, eventId: input.eventId, parkId: park.id },
              "could not send an approval request",
            );
          }
        }),
      );
    },
  };
}
