import { passesFilterNode, selectRoute } from "../../executors/filter-node.js";
import { validateSchema } from "../../executors/schema-validator.js";
import { type NodeExecutor, scaledMs } from "../node-result.js";

export const filterExecutor: NodeExecutor<"filter"> = {
  run: async ({ node, path }) =>
    passesFilterNode(node.config, path.payload)
      ? { kind: "pass", path }
      : {
          kind: "blocked",
          reason:
            node.config.filterMode === "or"
              ? "no filter rule matched"
              : "a filter rule did not match",
        },
};

export const routerExecutor: NodeExecutor<"router"> = {
  run: async ({ node, path }) => {
    const route = selectRoute(node.config, path.payload);
    if (!route) return { kind: "blocked", reason: "no route matched" };
    return { kind: "pass", path, forwards: [route.outputWebhookId] };
  },
};

export const transformExecutor: NodeExecutor<"transform"> = {
  run: async ({ node, path, input, ports }) => {
    const result = await ports.transform.run({
      mode: node.config.transformMode,
      template: node.config.template,
      payload: path.payload,
      context: {
        eventId: input.eventId,
        webhookId: input.webhookId,
        eventType: input.eventType,
        nodeId: node.id,
        nodeName: node.name,
      },
    });
    if (!result.ok) return { kind: "failed", error: result.error, failure: "transform" };
    return {
      kind: "pass",
      path: { id: path.id, payload: result.payload, body: result.body },
      changed: true,
    };
  },
};

export const schemaValidatorExecutor: NodeExecutor<"schemaValidator"> = {
  run: async ({ node, path, ports }) => {
    const result = await validateSchema(node.config, path.payload, ports.patterns);
    if (result.ok) return { kind: "pass", path };
    return { kind: "failed", error: result.errors.join("; "), failure: "validation" };
  },
};

export const delayExecutor: NodeExecutor<"delay"> = {
  run: async ({ node, ports }) => ({
    kind: "parked",
    park: "delay",
    resumeAt: ports.now() + scaledMs(node.config.delaySeconds, ports.delayScale),
    state: {},
  }),
  resume: async ({ path }, decision) =>
    decision.kind === "continue"
      ? { kind: "pass", path }
      : { kind: "failed", error: `delay cannot resume on ${decision.kind}`, failure: "graph" },
};

export const approvalExecutor: NodeExecutor<"approval"> = {
  run: async ({ node, ports }) => ({
    kind: "parked",
    park: "approval",
    resumeAt: ports.now() + scaledMs(node.config.timeoutMinutes * 60, ports.delayScale),
    state: {},
  }),
  resume: async ({ node, path }, decision) => {
    switch (decision.kind) {
      case "approved":
        return { kind: "pass", path };
      case "rejected":
        return {
          kind: "blocked",
          reason: decision.auto
            ? `rejected automatically after ${node.config.timeoutMinutes} min without a decision`
            : "rejected",
        };
      default:
        return {
          kind: "failed",
          error: `approval cannot resume on ${decision.kind}`,
          failure: "graph",
        };
    }
  },
};
