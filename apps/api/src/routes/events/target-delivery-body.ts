import { z } from "@hono/zod-openapi";
import { TARGET_DELIVERY_STATUSES, TARGET_NOTIFY_STATUSES } from "@hookflow/domain";
import type { TargetDeliveryRow } from "@hookflow/services";

/**
 * Where one additional target stands with an event (docs/decisions.md, "Additional targets"):
 * its own status and budget, apart from the event's (the primary's). Its attempts are listed
 * under `/deliveries` with `isAdditionalTarget` and `targetId`.
 */
export const TargetDeliverySummary = z
  .object({
    targetId: z.string(),
    status: z.enum(TARGET_DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    /** `target.failed` to the primary URL: null when not asked for. */
    notification: z.enum(TARGET_NOTIFY_STATUSES).nullable(),
  })
  .openapi("TargetDelivery");
export type TargetDeliverySummary = z.infer<typeof TargetDeliverySummary>;

export function toTargetDeliverySummary(row: TargetDeliveryRow): TargetDeliverySummary {
  return {
    targetId: row.targetId,
    status: TargetDeliverySummary.shape.status.parse(row.status),
    attempts: row.attemptCount,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    notification:
      row.notifyStatus === null
        ? null
        : TargetDeliverySummary.shape.notification.parse(row.notifyStatus),
  };
}
