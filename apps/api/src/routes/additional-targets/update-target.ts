import { createRoute } from "@hono/zod-openapi";
import { type AdditionalTargetRow, updateAdditionalTarget, withGraphWriteLock } from "@hookflow/db";
import { ownerScopeOf, storePayloadFilter } from "@hookflow/domain";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { publishTargetChanged } from "./publish-target-changed.js";
import {
  AdditionalTargetResponse,
  toTargetResponse,
  type UpdateTargetInput,
  UpdateTargetInput as UpdateTargetSchema,
} from "./target-input.js";
import {
  BEARER,
  checkPlanRetries,
  checkTargetInputs,
  errorResponses,
  loadVisibleTarget,
  scopeGuard,
  TARGETS_TAG,
  TargetIdParams,
  targetGone,
} from "./target-route-kit.js";

const route = createRoute({
  operationId: "updateAdditionalTarget",
  method: "patch",
  path: "/api/additional-targets/{id}",
  tags: [TARGETS_TAG],
  summary: "Update an additional target",
  description:
    "Only the fields given change; inputNodes and filters are replaced whole; payloadTransform " +
    "null removes the template. Webhooks the update adds to inputNodes are checked as on " +
    "create (400); a maxRetries given above the owner's plan limit is 403. Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: {
    params: TargetIdParams,
    body: { content: { "application/json": { schema: UpdateTargetSchema } }, required: true },
  },
  responses: {
    200: {
      description: "The updated target",
      content: { "application/json": { schema: AdditionalTargetResponse } },
    },
    ...errorResponses(400, 401, 403, 404),
  },
});

/** The stored target with the PATCH applied (lists replaced whole). */
function merged(current: AdditionalTargetRow, body: UpdateTargetInput, now: Date) {
  return {
    name: body.name ?? current.name,
    url: body.url ?? current.url,
    isActive: body.isActive ?? current.isActive,
    maxRetries: body.maxRetries ?? current.maxRetries,
    inputNodes: body.inputNodes ?? current.inputNodes,
    filters: body.filters ? body.filters.map(storePayloadFilter) : current.filters,
    payloadTransform:
      body.payloadTransform === undefined ? current.payloadTransform : body.payloadTransform,
    notifyPrimaryOnFailure: body.notifyPrimaryOnFailure ?? current.notifyPrimaryOnFailure,
    updatedAt: now,
  };
}

export function registerUpdateTarget(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const actor = c.get("actor");
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const current = await loadVisibleTarget(services, actor, id);
    const row = await withGraphWriteLock(services.db.db, ownerScopeOf(current), async (tx) => {
      const next = merged(current, body, services.now());
      if (body.maxRetries !== undefined) await checkPlanRetries(tx, current, body.maxRetries);
      if (body.inputNodes !== undefined) {
        // Only the links the update adds are checked; the ones it keeps stay as they were.
        const linked = new Set(current.inputNodes.map((input) => input.nodeId));
        await checkTargetInputs(tx, actor, current, next.inputNodes, linked);
      }
      const updated = await updateAdditionalTarget(tx, id, next);
      if (!updated) throw targetGone();
      return updated;
    });
    await publishTargetChanged(services, id);
    return c.json(toTargetResponse(row), 200);
  });
}
