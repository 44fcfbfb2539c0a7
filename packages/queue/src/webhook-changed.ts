import { z } from "zod";

/**
 * A webhook was created, updated, rotated or deleted: caches drop everything they hold for it,
 * every cached ingress token of the webhook included. Tokens are never named (they are secrets).
 */
export const WebhookChanged = z.object({
  webhookId: z.string(),
});
export type WebhookChanged = z.infer<typeof WebhookChanged>;
