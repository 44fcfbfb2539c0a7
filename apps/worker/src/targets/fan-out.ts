import { insertTargetDeliveries, type NewTargetDelivery } from "@hookflow/db";
import { enqueueDeliveries } from "@hookflow/queue";
import { parsePayload } from "../pipeline/run-fresh-pipeline.js";
import type { WorkerServices } from "../services.js";
import { targetPayload } from "./target-payload.js";

export interface FanOutInput {
  webhookId: string;
  eventId: string;
  priority: number;
  /** The event's attempt count when this delivery run began: names the run. */
  run: number;
  /** What the primary target receives (the graph's output, or the body as received). */
  body: string;
}

/**
 * Starts the event's deliveries to the webhook's active additional targets whose filters match
 * (docs/decisions.md, "Additional targets"): one row each (created once per delivery run), then
 * one job each, in parallel with the primary delivery and with budgets of their own. A job lost
 * between the rows' commit and the enqueue is re-enqueued by the sweeper. Costs nothing for a
 * webhook without targets (the list is cached).
 */
export async function fanOutToTargets(services: WorkerServices, input: FanOutInput): Promise<void> {
  const targets = await services.targets.forWebhook(input.webhookId);
  if (targets.length === 0) return;
  const payload = parsePayload(input.body);
  const rows: NewTargetDelivery[] = [];
  for (const target of targets) {
    const result = targetPayload(target, payload, input.body, services.config.maxPayloadBytes);
    if (result.kind === "skip") continue;
    rows.push({
      eventId: input.eventId,
      targetId: target.id,
      webhookId: input.webhookId,
      run: input.run,
      priority: input.priority,
      body: result.kind === "send" ? result.body : "",
      ...(result.kind === "fail"
        ? { failure: { error: result.error, notify: target.notifyPrimaryOnFailure } }
        : {}),
    });
  }
  if (rows.length === 0) return;
  const started = await insertTargetDeliveries(services.db.db, rows, services.now());
  const jobs = started.flatMap((row) => {
    const data = { eventId: input.eventId, webhookId: input.webhookId, targetId: row.targetId };
    if (row.status === "pending") return [{ priority: input.priority, data }];
    if (row.notifyStatus === "pending") {
      return [{ priority: input.priority, data: { ...data, targetFailed: true as const } }];
    }
    return [];
  });
  if (jobs.length > 0) await enqueueDeliveries(services.queues, jobs);
}
