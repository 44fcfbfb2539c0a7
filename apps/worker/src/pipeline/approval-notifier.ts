import {
  claimApprovalMail,
  type DbHandle,
  findWebhookName,
  markApprovalMailed,
} from "@hookflow/db";
import { type Mailer, sendApprovalRequest } from "@hookflow/mail";
import type { Logger } from "@hookflow/observability";
import type { FamilyConfig, PipelineNode } from "@hookflow/pipeline";
import type { StoredPark } from "./build-apply-write.js";

/** One approval park's request mail, whose claim the caller holds. */
export interface ApprovalMail {
  parkId: string;
  eventId: string;
  webhookId: string;
  /** The gate as the graph has it now; undefined when it was deleted (nothing to send). */
  node: PipelineNode | undefined;
  /** The path's payload at the gate, as JSON text. */
  payload: string;
  /** The gate's timeout: the links stop working then. */
  timeoutAt: Date;
}

/** How one claimed mail ended: `mailed` (or nobody to mail) is final; `retry` leaves the claim. */
type ApprovalMailOutcome = "mailed" | "retry";

/** Mails an approval gate's `notifyEmails` when a path parks there. */
export interface ApprovalNotifier {
  /** How long a claim on a park's mail lasts: a failed or interrupted send is retried after it. */
  readonly leaseMs: number;
  /** Right after parking: claims each approval park's mail, then sends it. */
  notify: (
    input: { eventId: string; webhookId: string; nodes: ReadonlyMap<string, PipelineNode> },
    parks: StoredPark[],
  ) => Promise<void>;
  /** Sends mails the caller already claimed (the sweeper's, for parks nobody mailed). */
  sendClaimed: (mails: ApprovalMail[]) => Promise<ApprovalMailOutcome[]>;
}

/**
 * Long enough for any SMTP send (the mailer's socket timeout is 30 s); a send interrupted by a
 * crash is retried this much later by the sweeper.
 */
const APPROVAL_MAIL_LEASE_MS = 120_000;

/**
 * One mail per parked path, with signed single-use approve and reject links valid until the
 * gate's timeout, through the shared mail sender (SMTP, or the local outbox without `SMTP_URL`).
 *
 * At least once, and once in the normal path: each send is preceded by a claim on the park row
 * (see `claimApprovalMail`) and followed, when the mail went out or was kept in the outbox, by
 * `notified_at`. A failed send keeps its claim until it runs out; then the sweeper tries again.
 * Never throws: a mail problem is recorded by the mailer and must not fail the event.
 */
export function createApprovalNotifier(options: {
  db: DbHandle;
  mailer: Mailer;
  secret: string;
  publicBaseUrl: string;
  logger: Logger;
  now?: () => Date;
  leaseMs?: number;
}): ApprovalNotifier {
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? APPROVAL_MAIL_LEASE_MS;
  const db = options.db.db;

  async function send(mail: ApprovalMail, webhookName: string): Promise<ApprovalMailOutcome> {
    const log = { eventId: mail.eventId, parkId: mail.parkId };
    try {
      const node = mail.node;
      if (node?.family === "approval") {
        const config = node.config as FamilyConfig<"approval">;
        const result = await sendApprovalRequest({
          mailer: options.mailer,
          secret: options.secret,
          publicBaseUrl: options.publicBaseUrl,
          node: {
            id: node.id,
            name: node.name,
            notifyEmails: config.notifyEmails,
            autoActionOnTimeout: config.autoActionOnTimeout,
            ownerId: node.ownerId,
            organizationId: node.organizationId,
          },
          webhookName,
          eventId: mail.eventId,
          parkId: mail.parkId,
          payload: mail.payload,
          timeoutAt: mail.timeoutAt,
        });
        // The mailer recorded and logged the failure; the claim runs out and the sweeper retries.
        // A mail a limit refused is recorded with why and is final: the event goes on waiting.
        if (result?.status === "failed") return "retry";
      }
      await markApprovalMailed(db, { parkId: mail.parkId, now: now() });
      return "mailed";
    } catch (error) {
      options.logger.warn({ err: error, ...log }, "could not send an approval request");
      return "retry";
    }
  }

  async function sendAll(mails: ApprovalMail[]): Promise<ApprovalMailOutcome[]> {
    const names = new Map<string, Promise<string>>();
    const nameOf = (webhookId: string) => {
      let name = names.get(webhookId);
      if (!name) {
        name = findWebhookName(options.db, webhookId).then(
          (found) => found ?? webhookId,
          () => webhookId,
        );
        names.set(webhookId, name);
      }
      return name;
    };
    return Promise.all(mails.map(async (mail) => send(mail, await nameOf(mail.webhookId))));
  }

  return {
    leaseMs,
    notify: async (input, parks) => {
      const claimed = await Promise.all(
        parks.map(async (park): Promise<ApprovalMail | undefined> => {
          try {
            const ours = await claimApprovalMail(db, { parkId: park.id, now: now(), leaseMs });
            if (!ours) return undefined;
          } catch (error) {
            // Unclaimed, so still owed: the sweeper sends it after its grace period.
            options.logger.warn(
              { err: error, eventId: input.eventId, parkId: park.id },
              "could not claim an approval request",
            );
            return undefined;
          }
          return {
            parkId: park.id,
            eventId: input.eventId,
            webhookId: input.webhookId,
            node: input.nodes.get(park.planned.outcome.nodeId),
            payload: JSON.stringify(park.planned.outcome.payload ?? null),
            timeoutAt: new Date(park.planned.outcome.resumeAt),
          };
        }),
      );
      await sendAll(claimed.filter((mail) => mail !== undefined));
    },
    sendClaimed: sendAll,
  };
}
