import { createRoute, z } from "@hono/zod-openapi";
import { findWebhookById, listRecentEventBodies } from "@hookflow/db";
import { type FamilyConfig, validateSchema } from "@hookflow/pipeline";
import { assertVisible } from "../../auth/access.js";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { nodesReachableFrom } from "../nodes/live-graph.js";
import { payloadOf } from "./event-body.js";
import { BEARER, EVENTS_TAG, errorResponses, scopeGuard } from "./event-route-kit.js";

export const CONTRACT_HEALTH_DEFAULT_LIMIT = 100;
export const CONTRACT_HEALTH_MAX_LIMIT = 1000;

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
        passRate: z.number().openapi({ description: "Events it accepted, percent, one decimal" }),
      }),
    ),
  })
  .openapi("ContractHealth");

const route = createRoute({
  method: "get",
  path: "/api/events/{webhookId}/contract-health",
  tags: [EVENTS_TAG],
  summary: "Contract health of a webhook",
  description:
    "Checks the webhook's last `limit` events (default 100, max 1000; every status) against " +
    "every schema validator reachable from the webhook in its live graph, using each event's " +
    "payload as received. An event passes when every validator accepts it. score = passed / " +
    "totalChecked * 100 rounded to one decimal; each validator's passRate likewise. With no " +
    "event (or no validator) nothing breaks the contract: score and passRates are 100. Needs " +
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

/** Percent with one decimal; 100 when nothing was checked (nothing broke the contract). */
export function percentOf(part: number, whole: number): number {
  return whole === 0 ? 100 : Math.round((part / whole) * 1000) / 10;
}

export function registerContractHealth(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { webhookId } = c.req.valid("param");
    const { limit } = c.req.valid("query");
    const db = services.db.db;
    assertVisible(c.get("actor"), await findWebhookById(db, webhookId), "Webhook");
    const validators = (await nodesReachableFrom(services.db, webhookId)).filter(
      (node) => node.family === "schemaValidator",
    );
    const events = await listRecentEventBodies(db, webhookId, limit);
    const accepted = validators.map(() => 0);
    let passed = 0;
    for (const event of events) {
      const payload = payloadOf(event.body);
      let all = true;
      validators.forEach((validator, i) => {
        const config = validator.config as FamilyConfig<"schemaValidator">;
        if (validateSchema(config, payload).ok) accepted[i] = (accepted[i] ?? 0) + 1;
        else all = false;
      });
      if (all) passed += 1;
    }
    return c.json(
      {
        score: percentOf(passed, events.length),
        totalChecked: events.length,
        passed,
        failed: events.length - passed,
        validators: validators.map((validator, i) => ({
          id: validator.id,
          name: validator.name,
          passRate: percentOf(accepted[i] ?? 0, events.length),
        })),
      },
      200,
    );
  });
}
