import { createRoute, z } from "@hono/zod-openapi";
import type { ApprovalDecision } from "@hookflow/domain";
import { decideApprovalEvent } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { BEARER, errorResponses, idParams, scopeGuard } from "../nodes/resource-route-kit.js";
import { APPROVAL_NODES_TAG } from "./approval-route-kit.js";

const DecideApprovalInput = z
  .object({ eventId: z.string().trim().min(1).max(100) })
  .openapi("DecideApprovalInput");

const ApprovalDecisionResult = z
  .object({
    eventId: z.string(),
    decision: z.enum(["approved", "rejected"]),
    decidedAt: z.string(),
  })
  .openapi("ApprovalDecision");

const ACTIONS = {
  approve: { decision: "approved", continues: "continues through the graph" },
  reject: { decision: "rejected", continues: "stops there (filtered, step blocked)" },
} as const satisfies Record<string, { decision: ApprovalDecision; continues: string }>;

function decideRoute(action: keyof typeof ACTIONS) {
  return createRoute({
    operationId: `${action}Event`,
    method: "post",
    path: `/api/approval-nodes/{id}/${action}`,
    tags: [APPROVAL_NODES_TAG],
    summary: `${action === "approve" ? "Approve" : "Reject"} an event waiting at an approval node`,
    description:
      `The event's path ${ACTIONS[action].continues} at once. Decides once: 404 when the event ` +
      "is not waiting at this gate (never parked here, already decided, timed out or " +
      "cancelled). Needs events:write.",
    security: BEARER,
    middleware: [scopeGuard("events:write")] as const,
    request: {
      params: idParams("apr_01J9Z3K8Q4T6V2X7Y5W0A1B2C3"),
      body: { required: true, content: { "application/json": { schema: DecideApprovalInput } } },
    },
    responses: {
      200: {
        description: "Decided",
        content: { "application/json": { schema: ApprovalDecisionResult } },
      },
      ...errorResponses("Approval node", 400, 401, 403, 404),
    },
  });
}

export function registerDecideApproval(
  app: ApiApp,
  services: ApiServices,
  action: keyof typeof ACTIONS,
): void {
  const { decision } = ACTIONS[action];
  app.openapi(decideRoute(action), async (c) => {
    const { id } = c.req.valid("param");
    const { eventId } = c.req.valid("json");
    const actor = c.get("actor");
    const decided = await decideApprovalEvent(services, actor, {
      nodeId: id,
      eventId,
      decision,
    });
    return c.json({ eventId, decision, decidedAt: decided.decidedAt.toISOString() }, 200);
  });
}
