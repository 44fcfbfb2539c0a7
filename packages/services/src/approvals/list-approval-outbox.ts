import { listMailOfSource } from "@hookflow/db";
import { redactApprovalLinks } from "@hookflow/mail";
import { hasScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleNode } from "../nodes/node-records.js";

export type OutboxMailStatus = "outbox" | "sent" | "failed" | "refused";

/** A mail of an approval node's outbox, its links as the actor may see them. */
export interface OutboxMailView {
  id: string;
  eventId: string | null;
  to: string[];
  subject: string;
  text: string;
  html: string;
  status: OutboxMailStatus;
  error: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

function statusOf(value: string): OutboxMailStatus {
  return value === "sent" || value === "failed" || value === "refused" ? value : "outbox";
}

/**
 * The approval mails of an approval node the actor can see (404/403 otherwise), newest first. A link
 * decides its event, so without events:write (the scope that decides approvals) each link's
 * token reads [redacted].
 */
export async function listApprovalOutbox(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { nodeId: string; page: number; limit: number },
): Promise<{ items: OutboxMailView[]; total: number }> {
  const node = await loadVisibleNode(ctx, actor, "approval", input.nodeId);
  const shown = hasScope(actor, "events:write") ? (text: string) => text : redactApprovalLinks;
  const { items, total } = await listMailOfSource(
    ctx.db.db,
    { sourceType: "approval", sourceId: node.id },
    { page: input.page, limit: input.limit },
  );
  return {
    items: items.map((mail) => ({
      id: mail.id,
      eventId: mail.eventId,
      to: mail.to,
      subject: mail.subject,
      text: shown(mail.text),
      html: shown(mail.html),
      status: statusOf(mail.status),
      error: mail.error,
      createdAt: mail.createdAt,
      sentAt: mail.sentAt,
    })),
    total,
  };
}
