import { getConnInfo } from "@hono/node-server/conninfo";
import {
  AppError,
  type ClientAddressResolver,
  createClientAddressResolver,
  type ErrorCode,
} from "@hookflow/domain";
import { withSpan } from "@hookflow/observability";
import type { Context, Hono } from "hono";
import type { RejectReason } from "../ingress/ingress-metrics.js";
import { receiveEvent } from "../ingress/receive-event.js";
import type { IngressServices } from "../services.js";
import { answerSync } from "../sync/answer-sync.js";

const REASONS: Record<ErrorCode, RejectReason> = {
  validation: "invalid_body",
  unauthorized: "signature",
  forbidden: "error",
  not_found: "not_found",
  conflict: "error",
  payload_too_large: "too_large",
  rate_limited: "rate_limited",
  unavailable: "unavailable",
};

/**
 * The sender's address: the socket's peer, or the client a trusted proxy (TRUSTED_PROXIES)
 * names in `X-Forwarded-For`. Without trusted proxies the header is never read, so a sender
 * cannot write its own address into the stored event.
 */
function sourceIpOf(c: Context, resolve: ClientAddressResolver): string | null {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    // No socket (in-process requests such as app.request in tests).
    return null;
  }
  return resolve(peer, c.req.header("x-forwarded-for"));
}

export function registerIngest(app: Hono, services: IngressServices): void {
  const resolveAddress = createClientAddressResolver(services.config.trustedProxies);
  app.post("/api/in/:token", (c) =>
    withSpan(services.tracer, "ingress.receive", { "hookflow.role": "ingress" }, async (span) => {
      try {
        const token = c.req.param("token");
        const result = await receiveEvent(services, {
          token,
          request: c.req.raw,
          sourceIp: sourceIpOf(c, resolveAddress),
        });
        span.setAttributes({
          "hookflow.webhook_id": result.webhookId,
          "hookflow.event_id": result.body.eventId,
          "hookflow.deduplicated": result.status === 200,
        });
        if (result.status === 202) {
          const sync = await answerSync(
            services,
            {
              webhookId: result.webhookId,
              responseMode: result.responseMode,
              isActive: result.isActive,
              ...result.body,
            },
            () => c.req.raw.signal,
          );
          if (sync) {
            span.setAttribute("hookflow.sync_status", sync.syncStatus);
            return c.json(sync, 200);
          }
        }
        return c.json(result.body, result.status);
      } catch (error) {
        const reason = error instanceof AppError ? REASONS[error.code] : "error";
        services.ingressMetrics.rejected.inc({ reason });
        span.setAttribute("hookflow.rejected", reason);
        throw error;
      }
    }),
  );
}
