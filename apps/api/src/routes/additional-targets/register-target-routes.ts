import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerCreateTarget } from "./create-target.js";
import { registerDeleteTarget } from "./delete-target.js";
import { registerReadTargets } from "./read-targets.js";
import { registerUpdateTarget } from "./update-target.js";

/** `/api/additional-targets`: list/create/get/PATCH/delete (docs/decisions.md, "Additional targets"). */
export function registerTargetRoutes(app: ApiApp, services: ApiServices): void {
  registerReadTargets(app, services);
  registerCreateTarget(app, services);
  registerUpdateTarget(app, services);
  registerDeleteTarget(app, services);
}
