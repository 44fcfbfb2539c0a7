import type { NodeExecutor } from "../node-result.js";
import type { AiRequest } from "../types.js";

/**
 * AI nodes (docs/decisions.md, AI nodes): the prompt is rendered from the payload by the
 * Handlebars transform (sandboxed, like a transform node), then the AI port runs the chat loop.
 * Its final answer (parsed as JSON when it is JSON) is the payload that flows on. A dry run has no
 * AI port: the step records the request the node would send and the payload goes on unchanged.
 */
export const aiNodeExecutor: NodeExecutor<"aiNode"> = {
  run: async ({ node, path, input, ports }) => {
    const rendered = await ports.transform.run({
      mode: "handlebars",
      template: node.config.promptTemplate,
      payload: path.payload,
      context: {
        eventId: input.eventId,
        webhookId: input.webhookId,
        eventType: input.eventType,
        nodeId: node.id,
        nodeName: node.name,
      },
    });
    if (!rendered.ok) {
      return { kind: "failed", error: `promptTemplate: ${rendered.error}`, failure: "transform" };
    }
    const messages: AiRequest["messages"] = [];
    if (node.config.systemPrompt !== "") {
      messages.push({ role: "system", content: node.config.systemPrompt });
    }
    messages.push({ role: "user", content: rendered.body });
    if (!ports.ai) {
      const wouldCall = {
        url: `${node.config.baseUrl.replace(/\/+$/, "")}/chat/completions`,
        model: node.config.model,
        messages,
        toolWebhookIds: node.config.toolWebhookIds,
        maxToolCalls: node.config.maxToolCalls,
      };
      return { kind: "pass", path, detail: { dryRun: true, wouldCall } };
    }
    const answer = await ports.ai.complete({
      nodeId: node.id,
      nodeName: node.name,
      ownerId: node.ownerId,
      organizationId: node.organizationId,
      eventId: input.eventId,
      config: node.config,
      messages,
    });
    if (!answer.ok) return { kind: "failed", error: answer.error, failure: "transform" };
    const body = typeof answer.output === "string" ? answer.output : JSON.stringify(answer.output);
    return {
      kind: "pass",
      path: { ...path, payload: answer.output, body },
      changed: true,
      detail: answer.detail,
    };
  },
};
