import { type HookflowConfig, loadConfig } from "@hookflow/config";

/** The only place the CLI reads `process.env`. */
export function readConfig(): HookflowConfig {
  return loadConfig(process.env);
}
