import { createRoute, z } from "@hono/zod-openapi";
import { listScheduledWorkflowRuns, type ScheduledWorkflowRun } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  errorResponses,
  idParams,
  PageQuery,
  scopeGuard,
  TotalCountHeader,
} from "../nodes/resource-route-kit.js";

const ScheduledRun = z
  .object({
    id: z.string(),
    workflowId: z.string(),
    scheduledFor: z.string().openapi({ description: "The tick this run is for" }),
    status: z.enum(["running", "retrying", "succeeded", "failed"]),
    mode: z.enum(["url", "webhook"]),
    attempts: z.number().int(),
    statusCode: z.number().int().nullable(),
    responseBody: z.string().nullable().openapi({ description: "First 4 KB of the url's answer" }),
    error: z.string().nullable(),
    eventId: z.string().nullable().openapi({ description: "webhook mode: the event injected" }),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi("ScheduledWorkflowRun");

function toRunResponse(row: ScheduledWorkflowRun): z.infer<typeof ScheduledRun> {
  return {
    id: row.id,
    workflowId: row.workflowId,
    scheduledFor: row.scheduledFor.toISOString(),
    status: row.status as z.infer<typeof ScheduledRun>["status"],
    mode: row.mode as z.infer<typeof ScheduledRun>["mode"],
    attempts: row.attempts,
    statusCode: row.statusCode,
    responseBody: row.responseBody,
    error: row.error,
    eventId: row.eventId,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

const route = createRoute({
  operationId: "listScheduledWorkflowRuns",
  method: "get",
  path: "/api/scheduled-workflows/{id}/runs",
  tags: ["Scheduled workflows"],
  summary: "List a scheduled workflow's runs",
  description:
    "One record per tick, latest tick first: when it was due, started and finished, its " +
    "status (running, retrying, succeeded, failed), attempts, and the url's status code and " +
    "answer or the event it injected. The latest 1000 ticks of each workflow are kept. page " +
    "defaults to 1, limit to 20 (max 100); the total is in X-Total-Count. Needs canvas:read.",
  security: BEARER,
  middleware: [scopeGuard("canvas:read")] as const,
  request: { params: idParams("swf_01J9Z3K8Q4T6V2X7Y5W0A1B2C3"), query: PageQuery },
  responses: {
    200: {
      description: "One page of runs",
      headers: TotalCountHeader,
      content: { "application/json": { schema: z.array(ScheduledRun) } },
    },
    ...errorResponses("Scheduled workflow", 400, 401, 403, 404),
  },
});

export function registerListScheduledRuns(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { page, limit } = c.req.valid("query");
    const { runs, total } = await listScheduledWorkflowRuns(services, c.get("actor"), {
      id,
      page,
      limit,
    });
    c.header("X-Total-Count", String(total));
    return c.json(runs.map(toRunResponse), 200);
  });
}
