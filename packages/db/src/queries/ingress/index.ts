export * from "./find-ingress-webhook.js";
export * from "./insert-ingress-events.js";
