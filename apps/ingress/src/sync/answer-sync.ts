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
 * request would otherwise pay.
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
  return syncResponseOf(accepted.eventId, accepted.streamToken, outcome);
}
