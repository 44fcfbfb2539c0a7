import type { Database } from "../../client.js";
import { eq, inArray } from "../../drizzle.js";
import { webhooks } from "../../schema/index.js";
import type { WebhookRow } from "./webhook-rows.js";

export async function findWebhookById(db: Database, id: string): Promise<WebhookRow | undefined> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id)).limit(1);
  return row;
}

export interface WebhookChainLink {
  id: string;
  ownerId: string;
  organizationId: string | null;
  chainWebhookIds: string[];
}

/** Owner columns and chain edges of the given webhooks (missing ids are simply absent). */
export async function findWebhookChainLinks(
  db: Database,
  ids: readonly string[],
): Promise<WebhookChainLink[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: webhooks.id,
      ownerId: webhooks.ownerId,
      organizationId: webhooks.organizationId,
      chainWebhookIds: webhooks.chainWebhookIds,
    })
    .from(webhooks)
    .where(inArray(webhooks.id, [...ids]));
}
