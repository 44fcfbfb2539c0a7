import { type HookflowConfig, loadConfig } from "@hookflow/config";

/** The only place the CLI reads `process.env`. */
export function readConfig(): HookflowConfig {
  return loadConfig(process.env);
}

/** What the client commands (`login`, `webhooks`, `events`, `listen`) read from the environment. */
export interface ClientEnv {
  /** `HOOKFLOW_URL`: where Hookflow runs. */
  url: string | undefined;
  /** `HOOKFLOW_API_KEY`: wins over a stored login. */
  apiKey: string | undefined;
  /** `HOOKFLOW_CONFIG`: the login file (default `$XDG_CONFIG_HOME/hookflow/config.json`). */
  configFile: string | undefined;
  xdgConfigHome: string | undefined;
  home: string | undefined;
}

export function readClientEnv(): ClientEnv {
  const nonEmpty = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
  return {
    url: nonEmpty(process.env.HOOKFLOW_URL),
    apiKey: nonEmpty(process.env.HOOKFLOW_API_KEY),
    configFile: nonEmpty(process.env.HOOKFLOW_CONFIG),
    xdgConfigHome: nonEmpty(process.env.XDG_CONFIG_HOME),
    home: nonEmpty(process.env.HOME),
  };
}
