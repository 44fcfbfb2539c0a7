import type { IngressServices } from "../services.js";
import { type SyncResponseBody, syncResponseOf } from "./sync-response.js";

export interface AcceptedEvent {
  token: string;
  webhookId: string;
  eventId: string;
  streamToken: string;
}

/**
 * For a webhook in sync response mode: waits for the accepted (already durable) event's pipeline
 * and returns the 200 body. Null for response mode `none`. The webhook comes from the token
 * cache the ingress just filled, so this costs no database round trip. `signalOf` is called only
 * for sync webhooks: reading a request's signal builds an AbortController, a cost every
 * mode-`none` request would otherwise pay.
 */
export async function answerSync(
  services: IngressServices,
  accepted: AcceptedEvent,
  signalOf?: () => AbortSignal,
): Promise<SyncResponseBody | null> {
  const webhook = await services.tokens.get(accepted.token).catch(() => null);
  if (!webhook || webhook.id !== accepted.webhookId || webhook.responseMode !== "sync") return null;
  if (!webhook.isActive) {
    return syncResponseOf(accepted.eventId, accepted.streamToken, { kind: "held", steps: [] });
  }
  const outcome = await services.sync.wait(accepted.eventId, signalOf?.());
  return syncResponseOf(accepted.eventId, accepted.streamToken, outcome);
}
