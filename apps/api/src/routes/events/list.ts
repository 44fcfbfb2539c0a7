import { createRoute, z } from "@hono/zod-openapi";
import { EVENT_STATUSES, listEvents } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { pageQueryFields } from "../../http/page-query.js";
import type { ApiServices } from "../../services.js";
import { EventSummary, toEventSummary } from "./event-body.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  scopeGuard,
  WebhookIdQuery,
} from "./event-route-kit.js";

const EVENT_PAGE_DEFAULT_LIMIT = 15;
const EVENT_PAGE_MAX_LIMIT = 100;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;
const HAS_ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/i;
const DAY_MS = 86_400_000;

/** Start and exclusive end of the instant (at millisecond precision) or day a bound names. */
function boundOf(value: string): { start: Date; end: Date } {
  if (DATE_ONLY.test(value)) {
    const start = new Date(`${value}T00:00:00.000Z`);
    return { start, end: new Date(start.getTime() + DAY_MS) };
  }
  // A date-time without a zone is read as UTC, never as the server's local time.
  const start = new Date(HAS_ZONE.test(value) ? value : `${value}Z`);
  return { start, end: new Date(start.getTime() + 1) };
}

const IsoBound = (name: string, description: string) =>
  z
    .string()
    .refine(
      (value) =>
        (DATE_ONLY.test(value) || DATE_TIME.test(value)) &&
        !Number.isNaN(boundOf(value).start.getTime()),
      { message: "Invalid ISO 8601 date or date-time" },
    )
    .optional()
    .openapi({ param: { name, in: "query" }, description, example: "2025-01-31T12:00:00Z" });

const ListQuery = z.object({
  webhookId: WebhookIdQuery,
  status: z
    .enum(EVENT_STATUSES)
    .optional()
    .openapi({ param: { name: "status", in: "query" } }),
  eventType: z
    .string()
    .min(1)
    .optional()
    .openapi({ param: { name: "eventType", in: "query" } }),
  dateFrom: IsoBound("dateFrom", "Events created at or after this instant (a date: its start)"),
  dateTo: IsoBound("dateTo", "Events created at or before this instant (a date: its whole day)"),
  ...pageQueryFields(EVENT_PAGE_DEFAULT_LIMIT, EVENT_PAGE_MAX_LIMIT),
});

const EventPage = z
  .object({
    data: z.array(EventSummary),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  })
  .openapi("EventPage");

const route = createRoute({
  operationId: "listEvents",
  method: "get",
  path: "/api/events",
  tags: [EVENTS_TAG],
  summary: "List events",
  description:
    "Events of the visible webhooks (the acting context's, or the one named by webhookId), " +
    "newest first, without payload and headers. dateFrom and dateTo are inclusive. page " +
    "defaults to 1, limit to 15 (max 100). Needs events:read.",
  security: BEARER,
  middleware: [scopeGuard("events:read")] as const,
  request: { query: ListQuery },
  responses: {
    200: {
      description: "One page of events",
      content: { "application/json": { schema: EventPage } },
    },
    ...errorResponses(400, 401, 403, 404),
  },
});

export function registerListEvents(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const { rows, total } = await listEvents(services, c.get("actor"), {
      webhookId: query.webhookId,
      status: query.status,
      eventType: query.eventType,
      from: query.dateFrom === undefined ? undefined : boundOf(query.dateFrom).start,
      before: query.dateTo === undefined ? undefined : boundOf(query.dateTo).end,
      page: query.page,
      limit: query.limit,
    });
    return c.json(
      { data: rows.map(toEventSummary), total, page: query.page, limit: query.limit },
      200,
    );
  });
}
