import type { Database } from "../../client.js";
import { and, eq, ne } from "../../drizzle.js";
import { webhooks } from "../../schema/index.js";

/** Mirrors the breaker's live state (kept in Redis) into the webhook row on each transition. */
export async function setWebhookCircuitState(
  db: Database,
  webhookId: string,
  state: "closed" | "open" | "half_open",
): Promise<void> {
  await db
    .update(webhooks)
    .set({ circuitState: state })
    .where(and(eq(webhooks.id, webhookId), ne(webhooks.circuitState, state)));
}
