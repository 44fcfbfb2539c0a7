import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerCreateCredential } from "./create.js";
import { registerDeleteCredential } from "./delete.js";
import { registerGetCredential } from "./get.js";
import { registerListCredentials } from "./list.js";
import { registerUpdateCredential } from "./update.js";

/**
 * `/api/credentials`: list, create, get, PATCH, delete (docs/decisions.md, Credentials). Data is
 * sealed before it is stored and never answered; scopes are those of the canvas.
 */
export function registerCredentialRoutes(app: ApiApp, services: ApiServices): void {
  registerListCredentials(app, services);
  registerCreateCredential(app, services);
  registerGetCredential(app, services);
  registerUpdateCredential(app, services);
  registerDeleteCredential(app, services);
}
