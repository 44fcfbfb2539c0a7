import type { ServiceContext } from "../context.js";
import type { ScheduleSyncContext } from "../schedules/sync-scheduler.js";
import type { ForwardLimits } from "./check-forward-limits.js";

/**
 * What a node write needs beyond the stores: the operator's graph limits
 * (`GRAPH_MAX_DESCENDANTS`, `GRAPH_MAX_FORWARD_DEPTH`), the mail recipient cap
 * (`MAIL_MAX_RECIPIENTS`) and, for scheduled workflows, the delay scale of their retries.
 */
export interface NodeWriteContext extends ServiceContext, ScheduleSyncContext {
  config: ScheduleSyncContext["config"] & {
    graphMaxDescendants: number;
    graphMaxForwardDepth: number;
    mailMaxRecipients: number;
  };
}

/** The operator's forwarding limits, as the write-time check takes them. */
export function forwardLimitsOf(ctx: NodeWriteContext): ForwardLimits {
  return {
    maxDescendants: ctx.config.graphMaxDescendants,
    maxDepth: ctx.config.graphMaxForwardDepth,
  };
}
