import type { IngressEventRow } from "@hookflow/db";
import {
  AppError,
  ConflictError,
  createStreamToken,
  eventTypeOf,
  NotFoundError,
  newId,
  RateLimitedError,
  STREAM_TOKEN_TTL_MS,
  UnavailableError,
} from "@hookflow/domain";
import type { IngressServices } from "../services.js";
import { claimDedupKeyWaiting, dedupKeyOf, releaseDedupKey } from "./dedup.js";
import type { AcceptingWebhook } from "./find-accepting-webhook.js";
import { checkIngressRate } from "./rate-limit.js";
import { assertDeclaredLength, parseJsonBody, readRawBody } from "./read-body.js";
import { sanitizeHeaders } from "./sanitize-headers.js";
import { type Header, verifySignature } from "./verify-signature.js";

export interface ReceiveInput {
  token: string;
  request: Request;
  sourceIp: string | null;
}

export type ReceiveResult =
  | {
      status: 202;
      body: { eventId: string; streamToken: string };
      webhookId: string;
      /** What the route needs to answer a sync-mode webhook, from the webhook already loaded. */
      responseMode: string;
      isActive: boolean;
    }
  | {
      status: 200;
      body: { eventId: string; deduplicated: true; originalEventId: string };
      webhookId: string;
    };

/**
 * The event type as stored: JSON can spell U+0000 (`"\u0000"`), which Postgres text cannot hold,
 * and one such value would fail the INSERT of its whole batch, other senders' events included.
 */
function storableType(payload: unknown): string | null {
  const type = eventTypeOf(payload);
  return type?.includes("\u0000") ? type.replaceAll("\u0000", "") : type;
}

/**
 * 409: a request with the same deduplication key holds the claim and has not stored its event
 * (still storing, or it crashed; then its claim runs out). Answering "deduplicated" now could name
 * an event that is never stored.
 */
class DedupPendingError extends ConflictError {
  override readonly headers = { "Retry-After": "1" };
  constructor() {
    super("A request with the same deduplication key is still being stored; retry shortly");
  }
}

/** Postgres and Redis failures become 503: the sender should retry, nothing was accepted. */
async function infra<T>(what: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new UnavailableError(`${what} unavailable`, error);
  }
}

/**
 * `POST /api/in/:token`: looks the webhook up, checks size, rate, signature and JSON, drops
 * duplicates, and answers only once the event is durable (stored and, for an active webhook,
 * enqueued) through the group-commit batcher. The route answers sync-mode webhooks from the
 * result (see sync/answer-sync.ts).
 */
export async function receiveEvent(
  services: IngressServices,
  input: ReceiveInput,
): Promise<ReceiveResult> {
  const { config } = services;
  const { request } = input;
  const header: Header = (name) => request.headers.get(name) ?? undefined;
  assertDeclaredLength(request, config.maxPayloadBytes);

  const webhook = await infra("Webhook store", services.tokens.get(input.token));
  if (!webhook) throw new NotFoundError("Webhook not found for this ingress token");
  if (config.ingressRateLimitPerSecond > 0) await enforceIngressRate(services, webhook.id);

  const raw = await readRawBody(request, config.maxPayloadBytes);
  verifySignature(webhook, header, raw, services.now());
  const { text, payload } = parseJsonBody(raw);
  const receivedAt = services.now();
  const eventId = newId("event", receivedAt);

  let dedupKey: string | null = null;
  if (webhook.dedupEnabled) {
    dedupKey = dedupKeyOf(header, raw);
    const original = await claimDedupKey(services, webhook.id, dedupKey, eventId);
    if (original !== null) return deduplicated(services, webhook.id, original);
  }
  await storeEvent(
    services,
    webhook,
    dedupKey,
    {
      id: eventId,
      webhookId: webhook.id,
      eventType: storableType(payload),
      body: text,
      headers: sanitizeHeaders(request.headers),
      sourceIp: input.sourceIp,
      priority: webhook.priority,
      dedupKey,
      receivedAt: new Date(receivedAt),
    },
    raw.byteLength,
  );

  services.ingressMetrics.accepted.inc({ mode: webhook.isActive ? "enqueued" : "parked" });
  return {
    status: 202,
    webhookId: webhook.id,
    responseMode: webhook.responseMode,
    isActive: webhook.isActive,
    body: {
      eventId,
      streamToken: createStreamToken(config.secret, eventId, services.now() + STREAM_TOKEN_TTL_MS),
    },
  };
}

/** 429 once the webhook's ingress rate is spent (only called when a limit is configured). */
async function enforceIngressRate(services: IngressServices, webhookId: string): Promise<void> {
  const decision = await infra(
    "Rate limiter",
    checkIngressRate({
      redis: services.redis,
      keys: services.keys,
      webhookId,
      limitPerSecond: services.config.ingressRateLimitPerSecond,
      nowMs: services.now(),
    }),
  );
  if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
}

/**
 * Claims the deduplication key for `eventId`. Returns null when this request holds the claim,
 * the original event's id when the key was already used; 409 while another request holds it.
 */
async function claimDedupKey(
  services: IngressServices,
  webhookId: string,
  key: string,
  eventId: string,
): Promise<string | null> {
  const claim = await infra(
    "Deduplication store",
    claimDedupKeyWaiting({
      redis: services.redis,
      keys: services.keys,
      webhookId,
      key,
      eventId,
      pendingMs: services.dedupPendingMs,
    }),
  );
  if ("pendingEventId" in claim) throw new DedupPendingError();
  return "originalEventId" in claim ? claim.originalEventId : null;
}

function deduplicated(
  services: IngressServices,
  webhookId: string,
  originalEventId: string,
): ReceiveResult {
  services.ingressMetrics.deduplicated.inc();
  return {
    status: 200,
    webhookId,
    body: { eventId: originalEventId, deduplicated: true, originalEventId },
  };
}

/**
 * Hands the row to the group commit and waits until it is durable. On failure the dedup claim is
 * released, so the sender's retry is not answered "deduplicated" for an event that was never stored.
 */
async function storeEvent(
  services: IngressServices,
  webhook: AcceptingWebhook,
  dedupKey: string | null,
  row: IngressEventRow,
  bodyBytes: number,
): Promise<void> {
  try {
    const outcome = await infra(
      "Event store",
      services.batcher.submit({
        row,
        dedupWindowSeconds: webhook.dedupWindowSeconds,
        enqueue: webhook.isActive,
        bodyBytes,
      }),
    );
    // The webhook was deleted while the request was in flight.
    if (!outcome.ok) throw outcome.error;
  } catch (error) {
    if (dedupKey !== null) {
      await releaseDedupKey({
        redis: services.redis,
        keys: services.keys,
        webhookId: webhook.id,
        key: dedupKey,
        eventId: row.id,
      }).catch((releaseError: unknown) =>
        services.logger.warn({ err: releaseError }, "could not release a dedup key"),
      );
    }
    throw error;
  }
}
