import type { Database } from "../../client.js";
import { webhooks } from "../../schema/index.js";
import type { NewWebhookRow, WebhookRow } from "./webhook-rows.js";

export async function insertWebhook(db: Database, values: NewWebhookRow): Promise<WebhookRow> {
  const [row] = await db.insert(webhooks).values(values).returning();
  if (!row) throw new Error("insert into webhooks returned no row");
  return row;
}
