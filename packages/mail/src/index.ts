export * from "./approval-email.js";
export * from "./html-escape.js";
export * from "./mail-message.js";
export * from "./mailer.js";
export * from "./redact-approval-links.js";
export * from "./send-approval-request.js";
