import { createRoute } from "@hono/zod-openapi";
import { deletePipelineNode, lockPipelineNode, withGraphWriteLock } from "@hookflow/db";
import { ownerScopeOf } from "@hookflow/domain";
import { FAMILIES, type FamilyKey } from "@hookflow/pipeline";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { syncSchedulerAfterWrite } from "../scheduled-workflows/sync-scheduler.js";
import { detachReferences } from "./detach-references.js";
import { familyDocs } from "./family-docs.js";
import { loadVisibleNode, nodeGone, publishGraphChanged } from "./node-records.js";
import { BEARER, errorResponses, idParams, scopeGuard } from "./resource-route-kit.js";

export function registerDeleteNode(app: ApiApp, services: ApiServices, key: FamilyKey): void {
  const docs = familyDocs(key);
  const route = createRoute({
    operationId: familyDocs(key).operationIds.delete,
    method: "delete",
    path: `/api/${FAMILIES[key].path}/{id}`,
    tags: [docs.tag],
    summary: `Delete ${docs.withArticle}`,
    description:
      "Deletes the node and, in the same transaction, removes it from every other node that " +
      "references it (their inputNodes and output lists), so the graph never holds a dangling " +
      "edge: nodes fed only by it are left without that input. Needs canvas:write.",
    security: BEARER,
    middleware: [scopeGuard("canvas:write")] as const,
    request: { params: idParams(`${FAMILIES[key].idPrefix}_01J9Z3K8Q4T6V2X7Y5W0A1B2C3`) },
    responses: {
      204: { description: "Deleted" },
      ...errorResponses(docs.label, 401, 403, 404, 409),
    },
  });

  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const node = await loadVisibleNode(services, c.get("actor"), key, id);
    const changed = await withGraphWriteLock(services.db.db, ownerScopeOf(node), async (tx) => {
      const locked = await lockPipelineNode(tx, id);
      if (!locked || locked.family !== key) throw nodeGone(key);
      const detached = await detachReferences(tx, node, services.now());
      if (!(await deletePipelineNode(tx, id))) throw nodeGone(key);
      return detached;
    });
    await publishGraphChanged(services, [id, ...changed]);
    if (key === "scheduledWorkflow") await syncSchedulerAfterWrite(services, id);
    return c.body(null, 204);
  });
}
