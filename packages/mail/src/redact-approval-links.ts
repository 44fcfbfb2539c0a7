/** Stands in for a link token in mail shown to someone who may not decide approvals. */
export const REDACTED_LINK_TOKEN = "[redacted]";

/** `/api/approvals/<token>` in any link `approvalLinkUrl` builds, whatever its base URL. */
const APPROVAL_LINK = /\/api\/approvals\/[A-Za-z0-9_.~%-]+/g;

/**
 * The mail text with every approval link's token replaced: a link decides its park, so only
 * someone who may decide approvals may read one.
 */
export function redactApprovalLinks(text: string): string {
  return text.replace(APPROVAL_LINK, `/api/approvals/${REDACTED_LINK_TOKEN}`);
}
