export { createIngressApp } from "./app.js";
export { readEnv } from "./env.js";
export {
  type BuildIngressServicesOptions,
  buildIngressServices,
  type IngressServices,
} from "./services.js";
