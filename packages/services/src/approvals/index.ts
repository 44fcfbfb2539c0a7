export * from "./approval-links.js";
export * from "./decide-approval-event.js";
export * from "./list-approval-outbox.js";
export * from "./list-pending-approvals.js";
export { PREVIEW_CHARS } from "./resume-decided.js";
