export * from "./link-results.js";
export * from "./webhook-consent.js";
