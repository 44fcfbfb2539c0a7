import { decideRateLimit } from "../../executors/rate-limit.js";
import { type NodeContext, type NodeExecutor, type NodeResult, scaledMs } from "../node-result.js";

async function admit(ctx: NodeContext<"rateLimiter">, deadline: number): Promise<NodeResult> {
  const { node, path, input, ports } = ctx;
  const config = node.config;
  const pass: NodeResult = { kind: "pass", path, forwards: [...config.outputWebhookIds] };
  if (!config.isActive) return pass;
  const answer = await ports.rateLimit.acquire({
    nodeId: node.id,
    // One arrival per run, node and path: asking again (a retried job) never counts twice.
    member: `${input.runId}:${node.id}:${path.id}`,
    maxEvents: config.maxEvents,
    windowMs: scaledMs(config.windowSeconds, ports.delayScale),
  });
  const decision = decideRateLimit(config, answer, { now: ports.now(), deadline });
  switch (decision.kind) {
    case "pass":
      return pass;
    case "drop":
      return { kind: "blocked", reason: decision.reason };
    case "queue":
      return {
        kind: "parked",
        park: "rateLimiter",
        resumeAt: decision.resumeAt,
        state: { deadline },
      };
  }
}

/**
 * Sliding window per node, shared by every worker. Allowed arrivals go on (and are forwarded to
 * `outputWebhookIds`); excess ones are dropped (`drop`) or queued until a slot frees up, for at
 * most `maxQueueDelaySeconds` counted from the first time they were queued (`queue`). An inactive
 * limiter lets everything through.
 */
export const rateLimiterExecutor: NodeExecutor<"rateLimiter"> = {
  run: (ctx) =>
    admit(
      ctx,
      ctx.ports.now() + scaledMs(ctx.node.config.maxQueueDelaySeconds, ctx.ports.delayScale),
    ),
  resume: (ctx, decision, state) => {
    if (decision.kind !== "continue") {
      return Promise.resolve({
        kind: "failed",
        error: `rate limiter cannot resume on ${decision.kind}`,
        failure: "graph",
      });
    }
    const deadline = typeof state.deadline === "number" ? state.deadline : ctx.ports.now();
    return admit(ctx, deadline);
  },
};
