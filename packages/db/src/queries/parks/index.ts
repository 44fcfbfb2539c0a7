export * from "./approval-mail.js";
export * from "./approvals.js";
export * from "./find-park.js";
export * from "./find-parks-to-resume.js";
