import { type HookflowConfig, loadConfig } from "@hookflow/config";

/** The only place the worker reads `process.env`. */
export function readEnv(): HookflowConfig {
  return loadConfig(process.env);
}
