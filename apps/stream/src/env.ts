import { type HookflowConfig, loadConfig } from "@hookflow/config";

/** The only place the stream app reads `process.env`. */
export function readEnv(): HookflowConfig {
  return loadConfig(process.env);
}
