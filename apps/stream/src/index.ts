export { createStreamApp } from "./app.js";
export { readEnv } from "./env.js";
export {
  type BuildStreamServicesOptions,
  buildStreamServices,
  type StreamServices,
} from "./services.js";
