export * from "./api-keys.js";
export * from "./organizations.js";
export * from "./sessions.js";
export * from "./users.js";
