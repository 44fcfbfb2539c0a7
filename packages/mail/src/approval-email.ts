import { escapeHtml } from "./html-escape.js";
import { mailSubject, oneLine } from "./mail-text.js";

export interface ApprovalEmailInput {
  nodeName: string;
  webhookName: string;
  eventId: string;
  /** The start of the waiting payload, as text (shown verbatim, escaped). */
  payloadPreview: string;
  approveUrl: string;
  rejectUrl: string;
  /** When the gate decides by itself; null if it never times out. */
  timeoutAt: Date | null;
  /** What the gate does at its timeout, said in the mail when given. */
  autoActionOnTimeout?: "approve" | "reject";
}

export interface BuiltEmail {
  subject: string;
  html: string;
  text: string;
}

function deadlineSentence(input: ApprovalEmailInput): string | null {
  if (!input.timeoutAt) return null;
  const when = input.timeoutAt.toISOString();
  if (!input.autoActionOnTimeout) return `Decide before ${when}.`;
  const action = input.autoActionOnTimeout === "approve" ? "approved" : "rejected";
  return `Decide before ${when}; after that the event is ${action} automatically.`;
}

/**
 * The mail an approval gate sends to its `notifyEmails`. Every user-controlled value (names,
 * payload, ids, urls) is escaped in the HTML part. The links open a confirmation page; nothing is
 * decided until that page's button is pressed, so mail scanners that fetch links decide nothing.
 */
export function buildApprovalEmail(input: ApprovalEmailInput): BuiltEmail {
  const subject = mailSubject(
    `Approval needed: ${input.webhookName} event ${input.eventId} at ${input.nodeName}`,
  );
  const deadline = deadlineSentence(input);

  const text = [
    `An event is waiting for your approval at "${oneLine(input.nodeName)}".`,
    "",
    `Webhook: ${oneLine(input.webhookName)}`,
    `Event: ${input.eventId}`,
    ...(deadline ? [deadline] : []),
    "",
    "Payload:",
    input.payloadPreview,
    "",
    `Approve: ${input.approveUrl}`,
    `Reject: ${input.rejectUrl}`,
    "",
    "Each link opens a confirmation page and works once.",
  ].join("\n");

  const e = escapeHtml;
  const button = (url: string, label: string, color: string) =>
    `<a href="${e(url)}" style="display:inline-block;padding:10px 18px;margin-right:8px;` +
    `border-radius:4px;background:${color};color:#ffffff;text-decoration:none">${label}</a>`;
  const html = [
    "<!doctype html>",
    '<html><body style="font-family:sans-serif;color:#1f2328">',
    `<p>An event is waiting for your approval at <strong>${e(input.nodeName)}</strong>.</p>`,
    "<table>",
    `<tr><td>Webhook</td><td>${e(input.webhookName)}</td></tr>`,
    `<tr><td>Event</td><td><code>${e(input.eventId)}</code></td></tr>`,
    "</table>",
    ...(deadline ? [`<p>${e(deadline)}</p>`] : []),
    '<pre style="background:#f6f8fa;padding:8px;white-space:pre-wrap">',
    e(input.payloadPreview),
    "</pre>",
    `<p>${button(input.approveUrl, "Approve", "#1a7f37")}${button(input.rejectUrl, "Reject", "#cf222e")}</p>`,
    "<p>Each link opens a confirmation page and works once.</p>",
    "</body></html>",
  ].join("\n");

  return { subject, html, text };
}
