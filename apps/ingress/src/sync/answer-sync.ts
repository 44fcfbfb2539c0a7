import { createStreamToken, STREAM_TOKEN_TTL_MS } from "@hookflow/domain";
import type { IngressServices } from "../services.js";
import { type SyncResponseBody, syncResponseOf } from "./sync-response.js";

export interface AcceptedEvent {
  webhookId: string;
  /** The accepted webhook's response mode and state, as the ingress loaded them. */
  responseMode: string;
  isActive: boolean;
  eventId: string;
  streamToken: string;
}

/**
 * For a webhook in sync response mode: waits for the accepted (already durable) event's pipeline
 * and returns the 200 body. Null for response mode `none`. `signalOf` is called only for sync
 * webhooks: reading a request's signal builds an AbortController, a cost every mode-`none`
 * request would otherwise pay. After a wait the answer carries a stream token issued then, valid
 * 120 s from the answer: the one issued at acceptance may have run out during the wait (a 408
 * comes 120 s after it), and the caller follows the event on the stream from here.
 */
export async function answerSync(
  services: IngressServices,
  accepted: AcceptedEvent,
  signalOf?: () => AbortSignal,
): Promise<SyncResponseBody | null> {
  if (accepted.responseMode !== "sync") return null;
  if (!accepted.isActive) {
    return syncResponseOf(accepted.eventId, accepted.streamToken, { kind: "held", steps: [] });
  }
  const outcome = await services.sync.wait(accepted.eventId, signalOf?.());
  const streamToken = createStreamToken(
    services.config.secret,
    accepted.eventId,
    services.now() + STREAM_TOKEN_TTL_MS,
  );
  return syncResponseOf(accepted.eventId, streamToken, outcome);
}
