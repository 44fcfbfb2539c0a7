import { eq } from "../../drizzle.js";
import { webhooks } from "../../schema/index.js";
import type { DbExecutor } from "../pipeline-nodes/node-rows.js";

export interface WebhookConsentRow {
  id: string;
  ownerId: string;
  organizationId: string | null;
  acceptsInternalCalls: boolean;
}

/** A webhook's owner columns and its consent to internal calls (flow links, AI tools). */
export async function findWebhookConsent(
  db: DbExecutor,
  id: string,
): Promise<WebhookConsentRow | undefined> {
  const [row] = await db
    .select({
      id: webhooks.id,
      ownerId: webhooks.ownerId,
      organizationId: webhooks.organizationId,
      acceptsInternalCalls: webhooks.acceptsInternalCalls,
    })
    .from(webhooks)
    .where(eq(webhooks.id, id))
    .limit(1);
  return row;
}
