import { createRoute, z } from "@hono/zod-openapi";
import { listEmailActionOutbox } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { OutboxMail } from "../approvals/outbox.js";
import {
  BEARER,
  errorResponses,
  idParams,
  PageQuery,
  scopeGuard,
  TotalCountHeader,
} from "../nodes/resource-route-kit.js";

const route = createRoute({
  operationId: "listEmailActionOutbox",
  method: "get",
  path: "/api/email-actions/{id}/outbox",
  tags: ["Email actions"],
  summary: "List the mails of an email action",
  description:
    "Every mail this action produced, newest first: kept here without SMTP_URL (status outbox), " +
    "else sent or failed through the operator's SMTP server; refused when over a mail limit " +
    "(MAIL_MAX_RECIPIENTS, MAIL_RATE_LIMIT_PER_HOUR), with the reason in error. A plain array; " +
    "the total is in X-Total-Count. Needs canvas:read.",
  security: BEARER,
  middleware: [scopeGuard("canvas:read")] as const,
  request: { params: idParams("ema_01J9Z3K8Q4T6V2X7Y5W0A1B2C3"), query: PageQuery },
  responses: {
    200: {
      description: "One page of mails",
      headers: TotalCountHeader,
      content: { "application/json": { schema: z.array(OutboxMail) } },
    },
    ...errorResponses("Email action", 400, 401, 403, 404),
  },
});

function statusOf(value: string): "outbox" | "sent" | "failed" | "refused" {
  return value === "sent" || value === "failed" || value === "refused" ? value : "outbox";
}

export function registerEmailActionOutbox(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { page, limit } = c.req.valid("query");
    const { mails, total } = await listEmailActionOutbox(services, c.get("actor"), {
      id,
      page,
      limit,
    });
    c.header("X-Total-Count", String(total));
    return c.json(
      mails.map((mail) => ({
        id: mail.id,
        _id: mail.id,
        eventId: mail.eventId,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        status: statusOf(mail.status),
        error: mail.error,
        createdAt: mail.createdAt.toISOString(),
        sentAt: mail.sentAt?.toISOString() ?? null,
      })),
      200,
    );
  });
}
