import { findWebhookById, listRecentEventBodies } from "@hookflow/db";
import type { TransformPort } from "@hookflow/pipeline";
import { assertVisible, requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import { liveWebhookGraph, reachableNodesOf } from "../nodes/live-graph.js";
import { checkContractHealth } from "./contract-health-check.js";
import type { DryRunContext } from "./dry-run-context.js";
import { payloadOf } from "./event-payload.js";

/** Wall time one call spends on dry runs; events not reached by then are not evaluated. */
const CONTRACT_HEALTH_BUDGET_MS = 5000;

export interface ContractHealthReport {
  /** passed / totalChecked * 100, one decimal. */
  score: number;
  totalChecked: number;
  passed: number;
  failed: number;
  validators: Array<{ id: string; name: string; passRate: number }>;
  /** Sampled events left out of every count; absent when every event was evaluated. */
  notEvaluated?: number;
}

export interface ContractHealthRequest {
  webhookId: string;
  /** Recent events checked. */
  limit: number;
  /**
   * Runs the check when its turn comes: the api lets only a few run at once per process, since
   * the dry runs share its transform runner with time travel. Without it, the check runs at once.
   */
  inTurn?: <T>(task: () => Promise<T>) => Promise<T>;
}

/** Percent with one decimal; 100 when nothing was checked (nothing broke the contract). */
function percentOf(part: number, whole: number): number {
  return whole === 0 ? 100 : Math.round((part / whole) * 1000) / 10;
}

/**
 * Contract health of a visible webhook (docs/decisions.md, "Node families and canvas"): its last
 * `limit` events checked against every schema validator reachable from it in its live graph, each
 * event dry-run through that graph (see `checkContractHealth`), within a time budget that starts
 * with the check, not while it waits its turn.
 */
export async function contractHealth(
  ctx: DryRunContext,
  actor: Actor,
  input: ContractHealthRequest,
): Promise<ContractHealthReport> {
  requireScope(actor, "events:read");
  const { webhookId, limit } = input;
  const webhook = assertVisible(actor, await findWebhookById(ctx.db.db, webhookId), "Webhook");
  const live = await liveWebhookGraph(ctx.db, webhookId);
  const validators = reachableNodesOf(live, "schemaValidator");
  const rows = await listRecentEventBodies(ctx.db.db, webhookId, limit);
  // The sandboxed runner starts only if a transform actually runs.
  const transform: TransformPort = { run: (call) => ctx.transformPort().run(call) };
  const inTurn = input.inTurn ?? ((task) => task());
  const tally = await inTurn(() => {
    // The budget starts with the check, not while the request waits its turn.
    const deadline = performance.now() + CONTRACT_HEALTH_BUDGET_MS;
    return checkContractHealth({
      webhookId,
      payloadFilters: webhook.payloadFilters,
      graph: live.graph,
      order: live.order,
      validators,
      events: rows.map((row) => ({
        id: row.id,
        eventType: row.eventType,
        payload: payloadOf(row.body),
        payloadText: row.body,
      })),
      transform,
      patterns: { match: (checks) => ctx.patternPort().match(checks) },
      now: () => ctx.now().getTime(),
      delayScale: ctx.config.delayScale,
      outOfTime: () => performance.now() >= deadline,
      onError: (eventId, error) =>
        ctx.logger.error({ err: error, eventId, webhookId }, "contract health dry run failed"),
    });
  });
  if (tally.notEvaluated > 0) {
    ctx.logger.warn(
      { webhookId, notEvaluated: tally.notEvaluated, checked: tally.checked },
      "contract health left events unevaluated",
    );
  }
  return {
    score: percentOf(tally.passed, tally.checked),
    totalChecked: tally.checked,
    passed: tally.passed,
    failed: tally.checked - tally.passed,
    validators: tally.validators.map((v) => ({
      id: v.node.id,
      name: v.node.name,
      passRate: percentOf(v.accepted, v.reached),
    })),
    ...(tally.notEvaluated > 0 ? { notEvaluated: tally.notEvaluated } : {}),
  };
}
