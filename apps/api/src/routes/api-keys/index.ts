import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerCreateApiKey } from "./create.js";
import { registerDeleteApiKey } from "./delete.js";
import { registerListApiKeys } from "./list.js";

export function registerApiKeys(app: ApiApp, services: ApiServices): void {
  registerCreateApiKey(app, services);
  registerListApiKeys(app, services);
  registerDeleteApiKey(app, services);
}
