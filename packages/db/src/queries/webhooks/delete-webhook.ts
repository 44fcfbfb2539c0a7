import { eq } from "../../drizzle.js";
import { webhooks } from "../../schema/index.js";
import type { DbExecutor } from "../pipeline-nodes/node-rows.js";

/** Deletes the webhook; its events and attempts go with it (foreign keys cascade). */
export async function deleteWebhook(db: DbExecutor, id: string): Promise<boolean> {
  const rows = await db.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id });
  return rows.length > 0;
}
