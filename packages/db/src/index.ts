export * from "./batching/group-commit.js";
export * from "./client.js";
export * from "./migrate.js";
export * from "./queries/index.js";
export * from "./schema/index.js";
