import { eq } from "drizzle-orm";
import type { Database } from "../../client.js";
import { webhooks } from "../../schema/index.js";

/** Deletes the webhook; its events and attempts go with it (foreign keys cascade). */
export async function deleteWebhook(
  db: Database,
  id: string,
): Promise<{ ingressToken: string } | undefined> {
  const [row] = await db
    .delete(webhooks)
    .where(eq(webhooks.id, id))
    .returning({ ingressToken: webhooks.ingressToken });
  return row;
}
