export { createApiApp } from "./app.js";
export { readEnv } from "./env.js";
export * from "./identity/index.js";
export { type ApiServices, buildApiServices } from "./services.js";
