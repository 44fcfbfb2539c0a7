export { listEmailActionOutbox } from "./list-email-action-outbox.js";
export { type GmailContext, type GmailLabel, listGmailLabels } from "./list-gmail-labels.js";
