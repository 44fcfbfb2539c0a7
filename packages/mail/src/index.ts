export * from "./approval-email.js";
export * from "./html-escape.js";
export * from "./mail-limits.js";
export * from "./mail-message.js";
export * from "./mail-quota.js";
export * from "./mail-text.js";
export * from "./mailer.js";
export * from "./send-approval-request.js";
