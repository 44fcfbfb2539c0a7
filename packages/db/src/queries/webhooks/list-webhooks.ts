import { and, count, desc, eq, isNull, type SQL } from "drizzle-orm";
import type { Database } from "../../client.js";
import { webhooks } from "../../schema/index.js";
import type { WebhookRow } from "./webhook-rows.js";

/** Whose webhooks: an organization's, or a user's personal ones (no organization). */
export type WebhookListScope = { organizationId: string } | { personalOf: string };

export interface ListWebhooksOptions {
  scope: WebhookListScope;
  offset: number;
  limit: number;
}

function scopeFilter(scope: WebhookListScope): SQL | undefined {
  return "organizationId" in scope
    ? eq(webhooks.organizationId, scope.organizationId)
    : and(eq(webhooks.ownerId, scope.personalOf), isNull(webhooks.organizationId));
}

/** One page, newest first, and the total of the scope. */
export async function listWebhooksPage(
  db: Database,
  options: ListWebhooksOptions,
): Promise<{ rows: WebhookRow[]; total: number }> {
  const where = scopeFilter(options.scope);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(webhooks)
      .where(where)
      .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ total: count() }).from(webhooks).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}
