/**
 * The abuse limits every sender of mail shares (approval gates now, email actions later): a cap
 * on recipients per mail (`MAIL_MAX_RECIPIENTS`) and a per-owner hourly budget of recipients
 * (`MAIL_RATE_LIMIT_PER_HOUR`, see `createRedisMailQuota`).
 */

/** Why a mail to `count` recipients is over the cap, or null when it is not. */
export function recipientCapProblem(count: number, maxRecipients: number): string | null {
  return count > maxRecipients
    ? `at most ${maxRecipients} recipients per mail (MAIL_MAX_RECIPIENTS), got ${count}`
    : null;
}

/** The rate-limit key of the user or organization that owns what sends the mail. */
export function mailOwnerOf(owner: { ownerId: string; organizationId: string | null }): string {
  return owner.organizationId ? `org:${owner.organizationId}` : `user:${owner.ownerId}`;
}
