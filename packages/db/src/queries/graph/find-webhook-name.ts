import type { DbHandle } from "../../client.js";

/** A webhook's name (approval mails name the webhook), or undefined when it is gone. */
export async function findWebhookName(handle: DbHandle, id: string): Promise<string | undefined> {
  const rows = await handle.sql<
    Array<{ name: string }>
  >`select name from webhooks where id = ${id}`;
  return rows[0]?.name;
}
