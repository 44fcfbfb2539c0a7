import { z } from "@hono/zod-openapi";
import { listApprovalOutbox } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { approvalNodeListRoute } from "./approval-node-list-route.js";

export const OutboxMail = z
  .object({
    id: z.string(),
    _id: z.string(),
    eventId: z.string().nullable(),
    to: z.array(z.string()),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    status: z.enum(["outbox", "sent", "failed", "refused"]).openapi({
      description:
        "outbox: kept here (no SMTP_URL); sent or failed through SMTP; refused: over a mail " +
        "limit (more recipients than MAIL_MAX_RECIPIENTS, or the owner's hourly budget " +
        "MAIL_RATE_LIMIT_PER_HOUR spent), never sent. error says why a mail failed or was refused.",
    }),
    error: z.string().nullable(),
    createdAt: z.string(),
    sentAt: z.string().nullable(),
  })
  .openapi("OutboxMail");

const route = approvalNodeListRoute({
  operationId: "listApprovalOutbox",
  list: "outbox",
  summary: "List the approval mails of an approval node",
  description:
    "Every approval request this gate mailed, newest first, with its approve and reject links. " +
    "Without SMTP_URL mail is only kept here (status outbox); with it the list records what " +
    "was sent or failed. Mail over a limit is listed as refused, with the reason in error. A " +
    "plain array; the total is in X-Total-Count. Needs canvas:read; a link decides its event, " +
    "so without events:write (the scope that decides approvals) each link's token reads " +
    "[redacted].",
  pageDescription: "One page of mails",
  item: OutboxMail,
});

export function registerApprovalOutbox(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { page, limit } = c.req.valid("query");
    const actor = c.get("actor");
    const { items, total } = await listApprovalOutbox(services, actor, {
      nodeId: id,
      page,
      limit,
    });
    c.header("X-Total-Count", String(total));
    return c.json(
      items.map((mail) => ({
        id: mail.id,
        _id: mail.id,
        eventId: mail.eventId,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        status: mail.status,
        error: mail.error,
        createdAt: mail.createdAt.toISOString(),
        sentAt: mail.sentAt?.toISOString() ?? null,
      })),
      200,
    );
  });
}
