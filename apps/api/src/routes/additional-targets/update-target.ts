import { createRoute } from "@hono/zod-openapi";
import { updateTarget } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { AdditionalTargetResponse, toTargetResponse, UpdateTargetInput } from "./target-input.js";
import {
  BEARER,
  errorResponses,
  scopeGuard,
  TARGETS_TAG,
  TargetIdParams,
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
    body: { content: { "application/json": { schema: UpdateTargetInput } }, required: true },
  },
  responses: {
    200: {
      description: "The updated target",
      content: { "application/json": { schema: AdditionalTargetResponse } },
    },
    ...errorResponses(400, 401, 403, 404),
  },
});

export function registerUpdateTarget(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const row = await updateTarget(services, c.get("actor"), {
      id: c.req.valid("param").id,
      patch: c.req.valid("json"),
    });
    return c.json(toTargetResponse(row), 200);
  });
}
