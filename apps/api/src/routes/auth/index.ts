import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerApiKeys } from "../api-keys/index.js";
import { registerOrganizations } from "../organizations/index.js";
import { registerLogin } from "./login.js";
import { registerLogout } from "./logout.js";
import { registerMe } from "./me.js";
import { registerSignup } from "./signup.js";

function registerAuth(app: ApiApp, services: ApiServices): void {
  registerSignup(app, services);
  registerLogin(app, services);
  registerLogout(app, services);
  registerMe(app, services);
}

/** Identity routes: auth, organizations and API keys. */
export function registerIdentityRoutes(app: ApiApp, services: ApiServices): void {
  registerAuth(app, services);
  registerOrganizations(app, services);
  registerApiKeys(app, services);
}
