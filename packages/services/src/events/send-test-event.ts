import {
  deleteIngressEvents,
  findWebhookById,
  insertIngressEvents,
  type WebhookRow,
} from "@hookflow/db";
import {
  createStreamToken,
  eventTypeOf,
  newId,
  openWebhookSecret,
  PayloadTooLargeError,
  STREAM_TOKEN_TTL_MS,
  UnavailableError,
} from "@hookflow/domain";
import { deliveryJobOf, enqueueDeliveries } from "@hookflow/queue";
import { assertVisible, requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { signatureTypeOf, testSignatureHeaders } from "./test-signature.js";

export interface TestEventContext extends ServiceContext {
  config: {
    /** Largest body accepted (MAX_PAYLOAD_BYTES); a larger one is 413. */
    maxPayloadBytes: number;
    /** Server secret the stream token is signed with. */
    secret: string;
  };
}

export interface TestEventInput {
  webhookId: string;
  /** Any JSON value; `{event: "test", message, timestamp}` when absent. */
  payload?: unknown;
  /** Sign like the configured incoming signature sender would. */
  includeSignature?: boolean;
}

/** The stored event's headers: the test client's, and the redacted signature when asked for. */
function testHeaders(
  ctx: TestEventContext,
  webhook: Pick<WebhookRow, "id" | "incomingSignatureType" | "incomingSignatureSecret">,
  input: { includeSignature?: boolean; body: string; nowMs: number },
): Record<string, string> {
  const type = signatureTypeOf(webhook.incomingSignatureType);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "Hookflow-Test",
  };
  if (input.includeSignature && type !== "none") {
    const sealed = webhook.incomingSignatureSecret;
    const secret =
      sealed === null
        ? null
        : openWebhookSecret(ctx.keyRing, webhook.id, "incoming_signature_secret", sealed);
    Object.assign(headers, testSignatureHeaders(type, secret, input.body, input.nowMs));
  }
  return headers;
}

/**
 * Creates an event exactly as the ingress would (stored, then queued unless the webhook is
 * inactive) and answers its id with a stream token to watch it. With `includeSignature`, the
 * request is signed and verified as the configured sender would sign it; the event records the
 * signature header with its value redacted (a valid signature for a chosen body would be a
 * reusable credential).
 */
export async function sendTestEvent(
  ctx: TestEventContext,
  actor: Actor,
  input: TestEventInput,
): Promise<{ eventId: string; streamToken: string }> {
  requireScope(actor, "events:write");
  const webhook = assertVisible(
    actor,
    await findWebhookById(ctx.db.db, input.webhookId),
    "Webhook",
  );
  const now = ctx.now();
  const payload = input.payload ?? {
    event: "test",
    message: "Test event from Hookflow",
    timestamp: now.toISOString(),
  };
  const body = JSON.stringify(payload);
  if (Buffer.byteLength(body, "utf8") > ctx.config.maxPayloadBytes) {
    throw new PayloadTooLargeError();
  }
  const headers = testHeaders(ctx, webhook, {
    includeSignature: input.includeSignature,
    body,
    nowMs: now.getTime(),
  });

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
  await insertIngressEvents(ctx.db.db, [row]);
  if (webhook.isActive) {
    try {
      await enqueueDeliveries(ctx.queues, [deliveryJobOf(row)]);
    } catch (error) {
      // Unlike the ingress's batches (docs/decisions.md, "Durable, then queued"), a test send is
      // one interactive request: it answers 503 and leaves nothing stored, rather than an event
      // that waits for the sweeper.
      await deleteIngressEvents(ctx.db.db, [eventId]).catch((cleanupError: unknown) =>
        ctx.logger.warn({ err: cleanupError, eventId }, "could not remove a test event"),
      );
      throw new UnavailableError("Queue unavailable", error);
    }
  }
  const streamToken = createStreamToken(
    ctx.config.secret,
    eventId,
    now.getTime() + STREAM_TOKEN_TTL_MS,
  );
  return { eventId, streamToken };
}
