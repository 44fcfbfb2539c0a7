import type { Database } from "../../client.js";
import { eq, not } from "../../drizzle.js";
import { webhooks } from "../../schema/index.js";
import type { WebhookRow, WebhookSettingsPatch } from "./webhook-rows.js";

/**
 * Read-modify-write of one webhook under a row lock, so two PATCHes of the same webhook never
 * judge their cross-field rules against a value the other is replacing. `decide` sees the locked
 * row and returns the columns to write (it may throw to abort). Undefined when the id is gone.
 */
export async function updateWebhookLocked(
  db: Database,
  id: string,
  decide: (current: WebhookRow) => WebhookSettingsPatch | Promise<WebhookSettingsPatch>,
): Promise<{ before: WebhookRow; after: WebhookRow } | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(webhooks).where(eq(webhooks.id, id)).for("update");
    if (!before) return undefined;
    const patch = await decide(before);
    const [after] = await tx.update(webhooks).set(patch).where(eq(webhooks.id, id)).returning();
    if (!after) return undefined;
    return { before, after };
  });
}

/** Flips `isActive` atomically; undefined when the id is gone. */
export async function toggleWebhookActive(
  db: Database,
  id: string,
  now: Date,
): Promise<boolean | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({ isActive: not(webhooks.isActive), updatedAt: now })
    .where(eq(webhooks.id, id))
    .returning({ isActive: webhooks.isActive });
  return row?.isActive;
}
