import { createRoute, z } from "@hono/zod-openapi";
import { sendTestEvent } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  eventIdParams,
  scopeGuard,
} from "./event-route-kit.js";

const TestEventInput = z
  .object({
    payload: z.unknown().optional().openapi({ description: "Any JSON value; a default if absent" }),
    includeSignature: z
      .boolean()
      .optional()
      .openapi({ description: "Sign like the configured incoming signature sender would" }),
  })
  .openapi("TestEventInput");

const TestEventAccepted = z
  .object({ eventId: z.string(), streamToken: z.string() })
  .openapi("TestEventAccepted");

const route = createRoute({
  operationId: "sendTestEvent",
  method: "post",
  path: "/api/webhooks/{id}/test",
  tags: [EVENTS_TAG],
  summary: "Send a test event",
  description:
    "Creates an event exactly as the ingress would (stored, then queued unless the webhook is " +
    "inactive). Default payload {event: 'test', message, timestamp}. With includeSignature and " +
    "an incoming signature type set, the request is signed the way the configured sender would " +
    "sign it and verified; the event records the signature header with its value redacted (a " +
    "valid signature for a chosen body would be a reusable credential). Needs events:write.",
  security: BEARER,
  middleware: [scopeGuard("events:write")] as const,
  request: {
    params: eventIdParams("id"),
    body: { content: { "application/json": { schema: TestEventInput } }, required: true },
  },
  responses: {
    202: {
      description: "Accepted",
      content: { "application/json": { schema: TestEventAccepted } },
    },
    ...errorResponses(400, 401, 403, 404, 413, 503),
  },
});

export function registerTestWebhook(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const accepted = await sendTestEvent(services, c.get("actor"), {
      webhookId: id,
      payload: input.payload,
      includeSignature: input.includeSignature,
    });
    return c.json(accepted, 202);
  });
}
