import type { Database } from "../../client.js";
import { webhooks } from "../../schema/index.js";
import { listOwnedPage, type RecordListScope } from "../owned-page.js";
import type { WebhookRow } from "./webhook-rows.js";

/** Whose webhooks: an organization's, or a user's personal ones (no organization). */
export type WebhookListScope = RecordListScope;

export interface ListWebhooksOptions {
  scope: WebhookListScope;
  offset: number;
  limit: number;
}

/** One page, newest first, and the total of the scope. */
export function listWebhooksPage(
  db: Database,
  options: ListWebhooksOptions,
): Promise<{ rows: WebhookRow[]; total: number }> {
  return listOwnedPage(db, webhooks, options);
}
