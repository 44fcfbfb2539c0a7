import { type HookflowConfig, loadConfig } from "@hookflow/config";

/** The only place the api reads `process.env`. */
export function readEnv(): HookflowConfig {
  return loadConfig(process.env);
}
