export * from "./sealed-webhook-secrets.js";
export * from "./webhook-input.js";
export * from "./webhook-response.js";
export * from "./webhook-secrets.js";
export * from "./webhook-settings.js";
