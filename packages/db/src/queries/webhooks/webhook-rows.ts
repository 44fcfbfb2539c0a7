import type { webhooks } from "../../schema/index.js";

export type WebhookRow = typeof webhooks.$inferSelect;
export type NewWebhookRow = typeof webhooks.$inferInsert;
/** Columns a settings update may write (ids, owner, token and signing secret have their own verbs). */
export type WebhookSettingsPatch = Partial<
  Omit<
    NewWebhookRow,
    | "id"
    | "ownerId"
    | "organizationId"
    | "ingressToken"
    | "tokenHash"
    | "signingSecret"
    | "createdAt"
  >
>;
