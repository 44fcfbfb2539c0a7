import { createRoute, z } from "@hono/zod-openapi";
import { getEvent } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { toActionRun } from "./action-runs-body.js";
import { ChainView } from "./chain-body.js";
import { EventDetail, toEventDetail } from "./event-body.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  eventIdParams,
  scopeGuard,
} from "./event-route-kit.js";
import { TargetDeliverySummary, toTargetDeliverySummary } from "./target-delivery-body.js";

const route = createRoute({
  operationId: "getEvent",
  method: "get",
  path: "/api/events/{id}",
  tags: [EVENTS_TAG],
  summary: "Get an event",
  description:
    "The event with its full payload and sanitised headers, the runs of the post-delivery " +
    "actions it fired (`actionRuns`), where each additional target of its webhook stands with it " +
    "(`targets`; their attempts are under /deliveries), and the chain it belongs to (`chain`: " +
    "every step from the origin, not_reached where it stopped). The event's status is its " +
    "primary target's. Needs events:read.",
  security: BEARER,
  middleware: [scopeGuard("events:read")] as const,
  request: { params: eventIdParams("id") },
  responses: {
    200: {
      description: "The event",
      content: {
        "application/json": {
          schema: EventDetail.extend({
            targets: z.array(TargetDeliverySummary),
            chain: ChainView.nullable(),
          }).openapi("EventWithTargets"),
        },
      },
    },
    ...errorResponses(401, 403, 404),
  },
});

export function registerGetEvent(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { event, actionRuns, targets, chain } = await getEvent(services, c.get("actor"), { id });
    return c.json(
      {
        ...toEventDetail(event, actionRuns.map(toActionRun)),
        targets: targets.map(toTargetDeliverySummary),
        chain,
      },
      200,
    );
  });
}
