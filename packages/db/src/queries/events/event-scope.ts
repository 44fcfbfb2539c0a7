import type { Database } from "../../client.js";
import type { PgColumn } from "../../drizzle.js";
import { and, eq, inArray, isNull, type SQL } from "../../drizzle.js";
import { webhooks } from "../../schema/index.js";

/**
 * Whose events: those of one webhook (already checked visible by the caller), of an
 * organization's webhooks, or of a user's personal webhooks (no organization).
 */
export type EventScope =
  | { webhookId: string }
  | { organizationId: string }
  | { personalOf: string };

/** `column` (a webhook id column) restricted to the scope; a subquery over `webhooks` otherwise. */
export function webhookInScope(db: Database, column: PgColumn, scope: EventScope): SQL {
  if ("webhookId" in scope) return eq(column, scope.webhookId);
  const owners =
    "organizationId" in scope
      ? eq(webhooks.organizationId, scope.organizationId)
      : and(eq(webhooks.ownerId, scope.personalOf), isNull(webhooks.organizationId));
  return inArray(column, db.select({ id: webhooks.id }).from(webhooks).where(owners));
}
