import { type NodeExecutor, scaledMs } from "../node-result.js";

/** How long a `wait_all` merge waits for its branches (docs/decisions.md, "Node families and canvas"), unscaled. */
export const MERGE_TIMEOUT_SECONDS = 3600;

/**
 * Joins the paths of one event. `wait_all`: arrivals wait (parked) until `expectedBranchCount`
 * paths arrived; the arrival that completes it goes on with `{branches: [...]}` in arrival order.
 * `first`: the first arrival goes on unchanged, the rest end here. The merge announces itself on
 * its first arrival and succeeds once, when it goes on.
 */
export const mergeExecutor: NodeExecutor<"merge"> = {
  announces: true,
  run: async ({ node, path, input, ports, running, settleMerge }) => {
    const answer = await ports.merge.arrive({
      runId: input.runId,
      eventId: input.eventId,
      nodeId: node.id,
      branchId: path.id,
      mode: node.config.mode,
      expectedBranchCount: node.config.expectedBranchCount,
      payload: JSON.stringify(path.payload ?? null),
    });
    switch (answer.kind) {
      case "waiting":
        if (answer.arrived === 1) running();
        return {
          kind: "parked",
          park: "merge",
          resumeAt: ports.now() + scaledMs(MERGE_TIMEOUT_SECONDS, ports.delayScale),
          state: { expectedBranchCount: node.config.expectedBranchCount },
        };
      case "complete": {
        if (answer.payloads.length <= 1) running();
        settleMerge("done");
        const merged = { branches: answer.payloads.map((text) => JSON.parse(text) as unknown) };
        return {
          kind: "pass",
          path: { id: node.id, payload: merged, body: JSON.stringify(merged) },
          changed: true,
        };
      }
      case "first":
        running();
        settleMerge("done");
        return { kind: "pass", path: { ...path, id: node.id } };
      case "late":
        return { kind: "joined" };
    }
  },
  resume: async ({ node, input, ports, settleMerge }, decision) => {
    if (decision.kind !== "timeout") {
      return { kind: "failed", error: `merge cannot resume on ${decision.kind}`, failure: "graph" };
    }
    const expired = await ports.merge.expire({
      runId: input.runId,
      eventId: input.eventId,
      nodeId: node.id,
    });
    if (!expired) return { kind: "joined" };
    settleMerge("expired");
    return {
      kind: "failed",
      error: `merge timed out waiting for ${node.config.expectedBranchCount} branches`,
      failure: "merge_timeout",
    };
  },
};
