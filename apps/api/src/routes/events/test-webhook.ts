import { createRoute, z } from "@hono/zod-openapi";
import { deleteIngressEvents, insertIngressEvents } from "@hookflow/db";
import {
  createStreamToken,
  eventTypeOf,
  type IncomingSignatureType,
  newId,
  PayloadTooLargeError,
  STREAM_TOKEN_TTL_MS,
  signIncomingForTest,
  UnavailableError,
  ValidationError,
  verifyIncomingSignature,
} from "@hookflow/domain";
import { enqueueDeliveries } from "@hookflow/queue";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { loadVisibleWebhook } from "../webhooks/webhook-route-kit.js";
import { deliveryOf } from "./event-jobs.js";
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
    "an incoming signature type set, the signature headers the configured sender would add are " +
    "recorded with the event, verified first. Needs events:write.",
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

const SIGNATURE_TYPES: readonly IncomingSignatureType[] = ["none", "custom", "github", "stripe"];

function signatureTypeOf(value: string): IncomingSignatureType {
  const type = SIGNATURE_TYPES.find((known) => known === value);
  if (!type) throw new Error(`webhook has an unknown incoming signature type: ${value}`);
  return type;
}

/** Signature headers a real sender would attach to `body`, checked against the verifier. */
function testSignatureHeaders(
  type: IncomingSignatureType,
  secret: string | null,
  body: string,
  nowMs: number,
): Record<string, string> {
  const signed = signIncomingForTest({ type, secret, rawBody: body, nowMs });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed)) headers[name.toLowerCase()] = value;
  if (Object.keys(headers).length === 0) {
    throw new ValidationError("includeSignature: the webhook has no incoming signature secret");
  }
  const verdict = verifyIncomingSignature({
    type,
    secret,
    headers: (name) => headers[name.toLowerCase()],
    rawBody: Buffer.from(body, "utf8"),
    nowMs,
  });
  if (!verdict.ok) throw new Error(`test signature failed its own verification: ${verdict.reason}`);
  return headers;
}

export function registerTestWebhook(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const webhook = await loadVisibleWebhook(services, c.get("actor"), id);
    const now = services.now();
    const payload = input.payload ?? {
      event: "test",
      message: "Test event from Hookflow",
      timestamp: now.toISOString(),
    };
    const body = JSON.stringify(payload);
    if (Buffer.byteLength(body, "utf8") > services.config.maxPayloadBytes) {
      throw new PayloadTooLargeError();
    }

    const type = signatureTypeOf(webhook.incomingSignatureType);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "user-agent": "Hookflow-Test",
    };
    if (input.includeSignature && type !== "none") {
      Object.assign(
        headers,
        testSignatureHeaders(type, webhook.incomingSignatureSecret, body, now.getTime()),
      );
    }

    const eventId = newId("event", now.getTime());
    const row = {
      id: eventId,
      webhookId: webhook.id,
      eventType: eventTypeOf(payload),
      body,
      headers,
      sourceIp: null,
      priority: webhook.priority,
      dedupKey: null,
      receivedAt: now,
    };
    await insertIngressEvents(services.db.db, [row]);
    if (webhook.isActive) {
      try {
        await enqueueDeliveries(services.queues, [deliveryOf(row)]);
      } catch (error) {
        // As at the ingress: no event is left stored-but-unannounced when the answer is an error.
        await deleteIngressEvents(services.db.db, [eventId]).catch((cleanupError: unknown) =>
          services.logger.warn({ err: cleanupError, eventId }, "could not remove a test event"),
        );
        throw new UnavailableError("Queue unavailable", error);
      }
    }
    const streamToken = createStreamToken(
      services.config.secret,
      eventId,
      now.getTime() + STREAM_TOKEN_TTL_MS,
    );
    return c.json({ eventId, streamToken }, 202);
  });
}
