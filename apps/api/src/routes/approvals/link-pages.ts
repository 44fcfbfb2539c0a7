import type { ApprovalDecision } from "@hookflow/domain";
import { escapeHtml as e } from "@hookflow/mail";
import type { ApprovalPark } from "@hookflow/services";

/**
 * The small HTML pages behind emailed approval links. Self-contained (no script, no external
 * resource), never cached, never framed (a framed one-click button could be clickjacked) and
 * never sending a Referer (the page URL holds the token).
 */
export const LINK_PAGE_HEADERS: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
};

const VERB: Record<ApprovalDecision, { action: string; done: string; color: string }> = {
  approved: { action: "Approve", done: "Approved", color: "#1a7f37" },
  rejected: { action: "Reject", done: "Rejected", color: "#cf222e" },
};

function page(title: string, body: string): string {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(title)} · Hookflow</title>`,
    "<style>body{font-family:sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;" +
      "color:#1f2328}pre{background:#f6f8fa;padding:.5rem;white-space:pre-wrap;" +
      "overflow-wrap:anywhere}button{padding:.6rem 1.2rem;border:0;border-radius:4px;" +
      "color:#fff;font-size:1rem;cursor:pointer}td{padding-right:1rem}</style>",
    `</head><body><h1>${e(title)}</h1>`,
    body,
    "</body></html>",
  ].join("\n");
}

function details(park: ApprovalPark): string {
  const preview = park.payloadTruncated ? `${park.payloadPreview}\n…` : park.payloadPreview;
  return [
    "<table>",
    `<tr><td>Approval node</td><td>${e(park.nodeName ?? park.nodeId)}</td></tr>`,
    `<tr><td>Webhook</td><td>${e(park.webhookName)}</td></tr>`,
    `<tr><td>Event</td><td><code>${e(park.eventId)}</code></td></tr>`,
    ...(park.timeoutAt
      ? [`<tr><td>Times out</td><td>${e(park.timeoutAt.toISOString())}</td></tr>`]
      : []),
    "</table>",
    `<pre>${e(preview)}</pre>`,
  ].join("\n");
}

/** The page a link opens: nothing is decided until its button posts the form. */
export function confirmPage(park: ApprovalPark, decision: ApprovalDecision): string {
  const verb = VERB[decision];
  return page(
    `${verb.action} this event?`,
    [
      details(park),
      // No action attribute: the form posts back to this very URL (the token included).
      '<form method="post">',
      `<button type="submit" style="background:${verb.color}">${verb.action}</button>`,
      "</form>",
    ].join("\n"),
  );
}

export function decidedPage(park: ApprovalPark, decision: ApprovalDecision): string {
  const outcome =
    decision === "approved"
      ? "The event continues through the pipeline."
      : "The event stops at this gate.";
  return page(VERB[decision].done, `<p>${outcome}</p>\n${details(park)}`);
}

function pastOutcome(park: ApprovalPark): string {
  const when = park.decidedAt ? ` at ${park.decidedAt.toISOString()}` : "";
  const auto = park.decidedBy === "timeout" ? " automatically when the gate timed out" : "";
  switch (park.status) {
    case "approved":
    case "rejected":
      return `This request was already ${park.status}${auto}${when}.`;
    case "cancelled":
      return `The event was cancelled${when}.`;
    default:
      return "This request is no longer waiting for a decision.";
  }
}

/** A second use of a link, or a link to a gate decided some other way. */
export function alreadyDecidedPage(park: ApprovalPark): string {
  return page("Already decided", `<p>${e(pastOutcome(park))}</p>\n${details(park)}`);
}

export function invalidLinkPage(reason: "malformed" | "mismatch" | "expired"): string {
  return reason === "expired"
    ? page("Link expired", "<p>This approval link has expired: the gate has timed out.</p>")
    : page("Invalid link", "<p>This approval link is not valid. Use the link from the mail.</p>");
}

export function goneParkPage(): string {
  return page("Not found", "<p>This approval request no longer exists.</p>");
}
