import { type ApprovalDecision, createApprovalLinkToken } from "@hookflow/domain";
import { buildApprovalEmail } from "./approval-email.js";
import { mailOwnerOf } from "./mail-limits.js";
import type { MailResult } from "./mail-message.js";
import type { Mailer } from "./mailer.js";

/** How much of the waiting payload an approval mail shows. */
export const APPROVAL_PREVIEW_CHARS = 2000;

/** `<base>/api/approvals/<token>`: the public page that confirms and applies one decision. */
export function approvalLinkUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, "")}/api/approvals/${token}`;
}

/** Approve and reject links of one parked path, valid until the gate's timeout. */
export function approvalLinks(input: {
  secret: string;
  publicBaseUrl: string;
  parkId: string;
  expiresAt: Date;
}): Record<ApprovalDecision, string> {
  const link = (decision: ApprovalDecision) =>
    approvalLinkUrl(
      input.publicBaseUrl,
      createApprovalLinkToken(input.secret, {
        parkId: input.parkId,
        decision,
        expiresAtMs: input.expiresAt.getTime(),
      }),
    );
  return { approved: link("approved"), rejected: link("rejected") };
}

/** The payload as readable text: pretty JSON when it parses, cut at `maxChars`. */
export function payloadPreviewOf(payload: string, maxChars = APPROVAL_PREVIEW_CHARS): string {
  let text = payload;
  try {
    text = JSON.stringify(JSON.parse(payload), null, 2) ?? payload;
  } catch {
    // Not JSON: shown as it is.
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n…` : text;
}

export interface ApprovalRequest {
  mailer: Mailer;
  /** HOOKFLOW_SECRET: signs the links. */
  secret: string;
  /** PUBLIC_BASE_URL: where the links point. */
  publicBaseUrl: string;
  node: {
    id: string;
    name: string;
    notifyEmails: readonly string[];
    autoActionOnTimeout: "approve" | "reject";
    /** The gate's owner: its mail draws on the owner's hourly budget. */
    ownerId: string;
    organizationId: string | null;
  };
  webhookName: string;
  eventId: string;
  parkId: string;
  /** The path's payload at the gate, as JSON text. */
  payload: string;
  /** The gate's timeout: the links stop working then. */
  timeoutAt: Date;
}

/**
 * Mails an approval gate's `notifyEmails` one message with signed approve and reject links for
 * this parked path. Null when the gate notifies nobody. Never throws for a mail failure (the
 * mailer records and logs it).
 */
export async function sendApprovalRequest(request: ApprovalRequest): Promise<MailResult | null> {
  if (request.node.notifyEmails.length === 0) return null;
  const links = approvalLinks({
    secret: request.secret,
    publicBaseUrl: request.publicBaseUrl,
    parkId: request.parkId,
    expiresAt: request.timeoutAt,
  });
  const email = buildApprovalEmail({
    nodeName: request.node.name,
    webhookName: request.webhookName,
    eventId: request.eventId,
    payloadPreview: payloadPreviewOf(request.payload),
    approveUrl: links.approved,
    rejectUrl: links.rejected,
    timeoutAt: request.timeoutAt,
    autoActionOnTimeout: request.node.autoActionOnTimeout,
  });
  return request.mailer.send({
    sourceType: "approval",
    sourceId: request.node.id,
    owner: mailOwnerOf(request.node),
    eventId: request.eventId,
    to: [...request.node.notifyEmails],
    ...email,
  });
}
