export { createApiApp } from "./app.js";
export { readEnv } from "./env.js";
export { type ApiServices, buildApiServices } from "./services.js";
