import { createRoute } from "@hono/zod-openapi";
import { insertAdditionalTarget, withGraphWriteLock } from "@hookflow/db";
import { newPrefixedId, ownerScopeOf, storePayloadFilter } from "@hookflow/domain";
import { ownershipOf } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { publishTargetChanged } from "./publish-target-changed.js";
import { AdditionalTargetResponse, CreateTargetInput, toTargetResponse } from "./target-input.js";
import {
  BEARER,
  checkPlanRetries,
  checkTargetInputs,
  errorResponses,
  scopeGuard,
  TARGETS_TAG,
} from "./target-route-kit.js";

const route = createRoute({
  operationId: "createAdditionalTarget",
  method: "post",
  path: "/api/additional-targets",
  tags: [TARGETS_TAG],
  summary: "Create an additional target",
  description:
    "name and url are required. Every inputNodes entry names a webhook (nodeType webhook) that " +
    "exists, is visible to the caller and belongs to the target's own owner (the organization " +
    "acted for, or the caller's personal space): 400 naming the field otherwise. maxRetries " +
    "(default 3) above the owner's plan limit (free 3, pro 10) is 403 naming the limit. " +
    "payloadTransform must be a valid JSON template (400). Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: {
    body: { content: { "application/json": { schema: CreateTargetInput } }, required: true },
  },
  responses: {
    201: {
      description: "The new target",
      content: { "application/json": { schema: AdditionalTargetResponse } },
    },
    ...errorResponses(400, 401, 403),
  },
});

export function registerCreateTarget(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const actor = c.get("actor");
    const input = c.req.valid("json");
    const now = services.now();
    const owner = ownershipOf(actor);
    const id = newPrefixedId("tgt", now.getTime());
    const row = await withGraphWriteLock(services.db.db, ownerScopeOf(owner), async (tx) => {
      await checkPlanRetries(tx, owner, input.maxRetries);
      await checkTargetInputs(tx, actor, { id, ...owner }, input.inputNodes);
      return insertAdditionalTarget(tx, {
        id,
        ...owner,
        ...input,
        filters: input.filters.map(storePayloadFilter),
        createdAt: now,
        updatedAt: now,
      });
    });
    await publishTargetChanged(services, row.id);
    return c.json(toTargetResponse(row), 201);
  });
}
