import { z } from "zod";

export const WebhookChanged = z.object({
  webhookId: z.string(),
  /** Tokens that must stop resolving at once (the old token on rotate, the token on delete). */
  ingressTokens: z.array(z.string()).default([]),
});
export type WebhookChanged = z.infer<typeof WebhookChanged>;
