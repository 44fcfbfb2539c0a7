import { createRoute, z } from "@hono/zod-openapi";
import { getTarget, listTargets } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { PageQuery, TotalCountHeader } from "../nodes/resource-route-kit.js";
import { AdditionalTargetResponse, toTargetResponse } from "./target-input.js";
import {
  BEARER,
  errorResponses,
  scopeGuard,
  TARGETS_TAG,
  TargetIdParams,
} from "./target-route-kit.js";

const listRoute = createRoute({
  operationId: "listAdditionalTargets",
  method: "get",
  path: "/api/additional-targets",
  tags: [TARGETS_TAG],
  summary: "List additional targets",
  description:
    "Targets of the acting context, newest first: the organization's when the request acts for " +
    "one, else the caller's personal ones. A plain array; the total is in X-Total-Count. page " +
    "defaults to 1, limit to 20 (max 100). Needs webhooks:read.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:read")] as const,
  request: { query: PageQuery },
  responses: {
    200: {
      description: "One page of targets",
      headers: TotalCountHeader,
      content: { "application/json": { schema: z.array(AdditionalTargetResponse) } },
    },
    ...errorResponses(400, 401, 403),
  },
});

const getRoute = createRoute({
  operationId: "getAdditionalTarget",
  method: "get",
  path: "/api/additional-targets/{id}",
  tags: [TARGETS_TAG],
  summary: "Get an additional target",
  description: "Needs webhooks:read.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:read")] as const,
  request: { params: TargetIdParams },
  responses: {
    200: {
      description: "The target",
      content: { "application/json": { schema: AdditionalTargetResponse } },
    },
    ...errorResponses(401, 403, 404),
  },
});

export function registerReadTargets(app: ApiApp, services: ApiServices): void {
  app.openapi(listRoute, async (c) => {
    const { page, limit } = c.req.valid("query");
    const { targets, total } = await listTargets(services, c.get("actor"), { page, limit });
    c.header("X-Total-Count", String(total));
    return c.json(targets.map(toTargetResponse), 200);
  });
  app.openapi(getRoute, async (c) => {
    const row = await getTarget(services, c.get("actor"), { id: c.req.valid("param").id });
    return c.json(toTargetResponse(row), 200);
  });
}
