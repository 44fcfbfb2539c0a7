import { z } from "@hono/zod-openapi";
import { listPendingApprovals, PREVIEW_CHARS } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { approvalNodeListRoute } from "./approval-node-list-route.js";

const PendingApproval = z
  .object({
    eventId: z.string(),
    webhookId: z.string(),
    parkId: z.string().openapi({ description: "The waiting path (an event can wait on two)" }),
    createdAt: z.string().openapi({ description: "When the event reached the gate" }),
    timeoutAt: z
      .string()
      .nullable()
      .openapi({ description: "When autoActionOnTimeout applies (HOOKFLOW_DELAY_SCALE included)" }),
    payloadPreview: z.string().openapi({
      description: `The first ${PREVIEW_CHARS} characters of the payload at the gate, as JSON text`,
    }),
    payloadTruncated: z.boolean(),
  })
  .openapi("PendingApproval");

const route = approvalNodeListRoute({
  operationId: "listPendingApprovals",
  list: "pending",
  summary: "List events waiting at an approval node",
  description:
    "Events parked at this gate and not yet approved, rejected or timed out, oldest first (they " +
    "time out first). A plain array; the total is in X-Total-Count. page defaults to 1, limit " +
    "to 20 (max 100). Needs canvas:read.",
  pageDescription: "One page of waiting events",
  item: PendingApproval,
});

export function registerPendingApprovals(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { page, limit } = c.req.valid("query");
    const { items, total } = await listPendingApprovals(services, c.get("actor"), {
      nodeId: id,
      page,
      limit,
    });
    c.header("X-Total-Count", String(total));
    return c.json(
      items.map((item) => ({
        eventId: item.eventId,
        webhookId: item.webhookId,
        parkId: item.parkId,
        createdAt: item.createdAt.toISOString(),
        timeoutAt: item.timeoutAt?.toISOString() ?? null,
        payloadPreview: item.payloadPreview,
        payloadTruncated: item.payloadTruncated,
      })),
      200,
    );
  });
}
