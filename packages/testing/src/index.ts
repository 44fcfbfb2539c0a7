export * from "./child-app.js";
export * from "./postgres-cluster.js";
export * from "./receiver.js";
export * from "./redis-server.js";
export * from "./sse-client.js";
export * from "./test-database.js";
export * from "./test-redis.js";
export * from "./test-secrets.js";
