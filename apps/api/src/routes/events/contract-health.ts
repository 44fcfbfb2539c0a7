import { createRoute, z } from "@hono/zod-openapi";
import { contractHealth, createTurns } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { BEARER, EVENTS_TAG, errorResponses, scopeGuard } from "./event-route-kit.js";

const CONTRACT_HEALTH_DEFAULT_LIMIT = 100;
const CONTRACT_HEALTH_MAX_LIMIT = 1000;

const ContractHealth = z
  .object({
    score: z.number().openapi({ description: "passed / totalChecked * 100, one decimal" }),
    totalChecked: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    validators: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        passRate: z.number().openapi({
          description:
            "Of the evaluated events whose payload reached it, the percent it accepted, one " +
            "decimal (100 when none reached it)",
        }),
      }),
    ),
    notEvaluated: z
      .number()
      .int()
      .optional()
      .openapi({
        description:
          "Sampled events left out of every count: the request's time budget ran out before " +
          "their dry run finished, or it could not run. Absent when every event was evaluated.",
      }),
  })
  .openapi("ContractHealth");

const route = createRoute({
  operationId: "getContractHealth",
  method: "get",
  path: "/api/events/{webhookId}/contract-health",
  tags: [EVENTS_TAG],
  summary: "Contract health of a webhook",
  description:
    "Checks the webhook's last `limit` events (default 100, max 1000; every status; not the " +
    "child events its own graph's fan-out made) against " +
    "every schema validator reachable from the webhook in its live graph. Each event runs " +
    "through that graph as time travel runs it, with every side effect off (transforms run in " +
    "their sandbox; delays go on at once, approvals count as approved, rate limiters as free), " +
    "so each validator judges the payload that would reach it; a validator no path of the " +
    "event reaches (a filter stopped it, an earlier node failed) does not judge it. An event " +
    "passes when no validator rejects it. score = passed / totalChecked * 100 rounded to one " +
    "decimal; a validator's passRate is over the events that reached it. With no event (or no " +
    "validator) nothing breaks the contract: score and passRates are 100. Newest events go " +
    "first; the request spends about 5 s at most on dry runs, and events it had no time left " +
    "for are counted in `notEvaluated`, not in totalChecked. At most 2 checks run at once " +
    "per api process; a request beyond that waits its turn (its 5 s start then). Needs " +
    "events:read.",
  security: BEARER,
  middleware: [scopeGuard("events:read")] as const,
  request: {
    params: z.object({
      webhookId: z
        .string()
        .min(1)
        .openapi({
          param: { name: "webhookId", in: "path" },
          example: "wh_01J9Z3K8Q4T6V2X7Y5W0A1B2C3",
        }),
    }),
    query: z.object({
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(CONTRACT_HEALTH_MAX_LIMIT)
        .default(CONTRACT_HEALTH_DEFAULT_LIMIT)
        .openapi({ param: { name: "limit", in: "query" }, description: "Recent events checked" }),
    }),
  },
  responses: {
    200: { description: "The score", content: { "application/json": { schema: ContractHealth } } },
    ...errorResponses(400, 401, 403, 404),
  },
});

/** Contract-health dry runs running at once per api process; further requests wait their turn. */
const CONTRACT_HEALTH_CONCURRENCY = 2;

export function registerContractHealth(app: ApiApp, services: ApiServices): void {
  // Dry runs share the api's transform runner with time travel: a burst of requests queues.
  const inTurn = createTurns(CONTRACT_HEALTH_CONCURRENCY);
  app.openapi(route, async (c) => {
    const { webhookId } = c.req.valid("param");
    const { limit } = c.req.valid("query");
    return c.json(
      await contractHealth(services, c.get("actor"), { webhookId, limit, inTurn }),
      200,
    );
  });
}
