import { createRoute } from "@hono/zod-openapi";
import { createTarget } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { AdditionalTargetResponse, CreateTargetInput, toTargetResponse } from "./target-input.js";
import { BEARER, errorResponses, scopeGuard, TARGETS_TAG } from "./target-route-kit.js";

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
    const row = await createTarget(services, c.get("actor"), c.req.valid("json"));
    return c.json(toTargetResponse(row), 201);
  });
}
