import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

/**
 * The folder of the built console for a `DASHBOARD_DIR` setting: `bundled` is the `dist` of the
 * `@hookflow/dashboard` package the api depends on (in the repository and in the image), `off`
 * is none (null), anything else a folder of the operator's.
 */
export function locateConsole(setting: string): string | null {
  if (setting === "off") return null;
  if (setting !== "bundled") return resolve(setting);
  try {
    const manifest = createRequire(import.meta.url).resolve("@hookflow/dashboard/package.json");
    return join(dirname(manifest), "dist");
  } catch {
    // Not installed next to the api: report the folder a workspace build would have filled.
    return resolve("apps/dashboard/dist");
  }
}
