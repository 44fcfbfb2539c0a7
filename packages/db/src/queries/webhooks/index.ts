export * from "./delete-webhook.js";
export * from "./find-webhooks.js";
export * from "./insert-webhook.js";
export * from "./list-webhooks.js";
export * from "./rotate-webhook-secrets.js";
export * from "./seal-webhook-secrets.js";
export * from "./update-webhook.js";
export * from "./webhook-rows.js";
