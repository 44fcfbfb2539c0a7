import { FAMILY_KEYS } from "@hookflow/pipeline";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerCreateNode } from "./create.js";
import { registerDeleteNode } from "./delete.js";
import { registerGetNode } from "./get.js";
import { registerListNodes } from "./list.js";
import { registerUpdateNode } from "./update.js";

/**
 * list/create/get/PATCH/delete at `/api/<family path>` for every family of the pipeline's
 * registry: a new family needs no route code. Only `/{id}` is claimed, so sub-paths such as
 * `/api/approval-nodes/{id}/pending` stay free for their own routes.
 */
export function registerNodeRoutes(app: ApiApp, services: ApiServices): void {
  for (const key of FAMILY_KEYS) {
    registerListNodes(app, services, key);
    registerCreateNode(app, services, key);
    registerGetNode(app, services, key);
    registerUpdateNode(app, services, key);
    registerDeleteNode(app, services, key);
  }
}
