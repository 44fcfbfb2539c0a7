import { z } from "@hono/zod-openapi";
import type { ActionRunRecord } from "@hookflow/services";

/** One post-delivery action's run for an event (docs/decisions.md, Post-delivery actions). */
export const ActionRun = z
  .object({
    id: z.string(),
    actionId: z.string(),
    family: z.string().openapi({ description: "httpAction, notificationAction, emailAction, ..." }),
    trigger: z
      .enum(["success", "failure"])
      .openapi({ description: "The delivery outcome that fired it" }),
    status: z.enum(["running", "retrying", "success", "failed"]),
    tries: z.number().int(),
    statusCode: z.number().int().nullable(),
    response: z
      .string()
      .nullable()
      .openapi({ description: "First 4 KB of what the action got back" }),
    error: z.string().nullable(),
    durationMs: z.number().int().nullable().openapi({ description: "Of the last try" }),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi("ActionRun");
export type ActionRun = z.infer<typeof ActionRun>;

const STATUSES = ["running", "retrying", "success", "failed"] as const;

export function toActionRun(record: ActionRunRecord): ActionRun {
  const status = STATUSES.find((known) => known === record.status) ?? "failed";
  return {
    id: record.id,
    actionId: record.actionId,
    family: record.family,
    trigger: record.trigger === "failure" ? "failure" : "success",
    status,
    tries: record.tries,
    statusCode: record.statusCode,
    response: record.response,
    error: record.error,
    durationMs: record.durationMs,
    startedAt: record.startedAt.toISOString(),
    finishedAt: record.finishedAt?.toISOString() ?? null,
  };
}
