export type { AiToolSource, ExtraAiTool, ResolveBearerToken } from "./ai/ai-port.js";
export { readEnv } from "./env.js";
export { createWorkerHttpApp } from "./http/worker-app.js";
export {
  type BuildWorkerServicesOptions,
  buildWorkerServices,
  type WorkerServices,
} from "./services.js";
export { type RunningWorker, startWorker } from "./start-worker.js";
