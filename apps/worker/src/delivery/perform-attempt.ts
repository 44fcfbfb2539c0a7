import type { DeliveryEvent } from "@hookflow/db";
import { buildDeliveryHeaders } from "@hookflow/domain";
import { chainHeadersFor } from "../chains/chain-headers.js";
import type { WorkerServices } from "../services.js";
import type { WorkerWebhook } from "../webhooks/webhook-cache.js";
import { applyChaos, CHAOS_ERROR } from "./chaos.js";
import type { SendResult } from "./http-sender.js";

export interface PerformedAttempt {
  /** Global attempt number of the event (continues across phases and replays). */
  number: number;
  attemptedAt: Date;
  result: SendResult;
  chaos: boolean;
}

/** One attempt on `targetUrl`: chaos first, then the signed request with the exact body bytes. */
export async function performAttempt(
  services: WorkerServices,
  input: { webhook: WorkerWebhook; event: DeliveryEvent; body: string; targetUrl: string },
): Promise<PerformedAttempt> {
  const { webhook, event, body, targetUrl } = input;
  const number = event.attemptCount + 1;
  const chaosFailure = await applyChaos(webhook);
  const attemptedAt = services.now();
  if (chaosFailure) {
    return {
      number,
      attemptedAt,
      chaos: true,
      result: {
        statusCode: 0,
        responseBody: "",
        retryAfter: null,
        latencyMs: 0,
        error: CHAOS_ERROR,
        refused: false,
      },
    };
  }
  const chain = await chainHeadersFor(services, event);
  const headers = buildDeliveryHeaders({
    eventId: event.id,
    attempt: number,
    keys: webhook.signingKeys,
    body,
    nowMs: attemptedAt.getTime(),
    ...(chain ? { chain } : {}),
  });
  const result = await services.http.send({ url: targetUrl, headers, body });
  return { number, attemptedAt, chaos: false, result };
}
