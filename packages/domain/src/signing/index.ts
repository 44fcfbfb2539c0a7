export * from "./approval-link-token.js";
export * from "./hmac.js";
export * from "./incoming-signature.js";
export * from "./outgoing-signature.js";
export * from "./stream-token.js";
export * from "./webhook-stream-token.js";
