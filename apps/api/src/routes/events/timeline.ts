import { createRoute, z } from "@hono/zod-openapi";
import { eventTimeline, TIMELINE_MAX_DAYS } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  scopeGuard,
  WebhookIdQuery,
} from "./event-route-kit.js";

/** Most buckets one timeline is cut into. */
const TIMELINE_MAX_BUCKETS = 200;

const Bucket = z.object({
  start: z.string().openapi({ description: "Start of the bucket (ISO 8601)" }),
  total: z.number().int().openapi({ description: "Events created in the bucket" }),
  delivered: z.number().int().openapi({ description: "Of those, delivered by now" }),
  failed: z.number().int().openapi({ description: "Of those, failed by now" }),
  p50: z.number().nullable().openapi({ description: "Median latency (ms) of successful attempts" }),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
});

const EventTimeline = z
  .object({
    from: z.string(),
    to: z.string(),
    bucketSeconds: z.number(),
    buckets: z.array(Bucket),
  })
  .openapi("EventTimeline");

const Instant = z.iso
  .datetime({ offset: true })
  .optional()
  .openapi({ example: "2030-01-31T12:00:00Z" });

const route = createRoute({
  method: "get",
  path: "/api/events/timeline",
  operationId: "getEventTimeline",
  tags: [EVENTS_TAG],
  summary: "Deliveries, failures and latency over time",
  description:
    "Splits [from, to) into `buckets` equal buckets (every bucket is listed, empty ones with " +
    "zeros and null latencies): events created in each by their status now, and the p50, p95 " +
    "and p99 latency (ms, one decimal) of the successful attempts made in each. Defaults: the " +
    `last 24 hours in 24 buckets. At most ${TIMELINE_MAX_DAYS} days and ` +
    `${TIMELINE_MAX_BUCKETS} buckets (else 400). Needs events:read.`,
  security: BEARER,
  middleware: [scopeGuard("events:read")] as const,
  request: {
    query: z.object({
      webhookId: WebhookIdQuery,
      from: Instant,
      to: Instant,
      buckets: z.coerce.number().int().min(1).max(TIMELINE_MAX_BUCKETS).default(24),
    }),
  },
  responses: {
    200: { description: "Timeline", content: { "application/json": { schema: EventTimeline } } },
    ...errorResponses(400, 401, 403, 404),
  },
});

export function registerEventTimeline(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const timeline = await eventTimeline(services, c.get("actor"), {
      webhookId: query.webhookId,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
      buckets: query.buckets,
    });
    return c.json(timeline, 200);
  });
}
