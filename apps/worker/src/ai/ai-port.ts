import { type AiAnswer, type AiPort, type AiRequest, toolNameOf } from "@hookflow/pipeline";
import { z } from "zod";
import type { WorkerServices } from "../services.js";
import type { ChatClient, ChatMessage, ChatReply } from "./chat-client.js";
import { runTool } from "./run-tool.js";
import { toolParametersOf } from "./tool-schema.js";

/**
 * The bearer token of an AI node's credential, or undefined when there is none. The owner is the
 * node's organization or personal space: a credential of another scope must not resolve. The
 * credentials store plugs in here (docs/decisions.md, AI nodes).
 */
export type ResolveBearerToken = (
  owner: { ownerId: string; organizationId: string | null },
  credentialId: string,
) => Promise<string | undefined>;

/** Attempts of one model call when it answers 429 or 5xx or does not answer. */
const AI_CALL_ATTEMPTS = 3;
/** The longest wait between attempts (a longer Retry-After is cut to it), before the delay scale. */
const MAX_RETRY_WAIT_MS = 30_000;

const Completion = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string(),
                type: z.literal("function").default("function"),
                function: z.object({ name: z.string(), arguments: z.string().default("") }),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().default(0),
      completion_tokens: z.number().default(0),
      total_tokens: z.number().default(0),
    })
    .nullish(),
});

function retryable(reply: Extract<ChatReply, { ok: false }>): boolean {
  return reply.status === 0 || reply.status === 429 || reply.status >= 500;
}

function parseOutput(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/**
 * A tool from elsewhere than a webhook: the seam for the operations of Gmail actions with
 * `aiEnabled` (docs/decisions.md, AI nodes). The source checks the node's rights to it.
 */
export interface ExtraAiTool {
  /** The function name, unique in the node's list ([a-zA-Z0-9_-]{1,64}; `webhook_` is taken). */
  name: string;
  description: string;
  /** JSON schema of the arguments. */
  parameters: object;
  /** Runs one call: the `tool` message content (JSON text) and a short status for the step. */
  run: (argumentsJson: string) => Promise<{ content: string; status: string }>;
}

/** The extra tools an AI node gets (by its owner and config); none unless one is plugged in. */
export type AiToolSource = (request: AiRequest) => Promise<ExtraAiTool[]>;

type Tool = { definition: Record<string, unknown> } & (
  | { webhookId: string }
  | { extra: ExtraAiTool }
);

/**
 * One function tool per tool webhook (its rights are checked when called), then the extra
 * tools of `source`.
 */
async function toolsOf(
  services: WorkerServices,
  request: AiRequest,
  source: AiToolSource | undefined,
): Promise<Map<string, Tool>> {
  const tools = new Map<string, Tool>();
  for (const extra of source ? await source(request) : []) {
    if (extra.name.startsWith("webhook_")) continue;
    tools.set(extra.name, {
      extra,
      definition: {
        type: "function",
        function: {
          name: extra.name,
          description: extra.description,
          parameters: extra.parameters,
        },
      },
    });
  }
  for (const webhookId of request.config.toolWebhookIds) {
    const graph = await services.pipeline.graphs.get(webhookId);
    const name = toolNameOf(webhookId);
    tools.set(name, {
      webhookId,
      definition: {
        type: "function",
        function: {
          name,
          description: `Runs the pipeline of webhook ${webhookId} on the arguments and returns {status, output}`,
          parameters: toolParametersOf(graph.graph, graph.order),
        },
      },
    });
  }
  return tools;
}

export function createAiPort(options: {
  services: () => WorkerServices;
  chat: ChatClient;
  resolveBearerToken: ResolveBearerToken;
  /** Extra tools (Gmail actions with aiEnabled, once they exist). */
  extraTools?: AiToolSource;
  delayScale: number;
}): AiPort {
  const send = async (url: string, token: string | undefined, body: Record<string, unknown>) => {
    let reply: ChatReply = { ok: false, status: 0, error: "not sent" };
    for (let attempt = 1; attempt <= AI_CALL_ATTEMPTS; attempt += 1) {
      reply = await options.chat.send({ url, token, body });
      if (reply.ok || !retryable(reply) || attempt === AI_CALL_ATTEMPTS) return reply;
      const wait = Math.min(reply.retryAfterMs ?? 1000 * 2 ** (attempt - 1), MAX_RETRY_WAIT_MS);
      await new Promise((resolve) => setTimeout(resolve, Math.round(wait * options.delayScale)));
    }
    return reply;
  };

  const complete = async (request: AiRequest): Promise<AiAnswer> => {
    const services = options.services();
    const { config } = request;
    const owner = { ownerId: request.ownerId, organizationId: request.organizationId };
    const token = config.credentialId
      ? await options.resolveBearerToken(owner, config.credentialId)
      : undefined;
    if (config.credentialId && token === undefined) {
      return { ok: false, error: `credentialId: credential ${config.credentialId} cannot be used` };
    }
    const url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
    const tools = await toolsOf(services, request, options.extraTools);
    const messages: ChatMessage[] = [...request.messages];
    const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, modelCalls: 0 };
    const calls: Array<{ webhookId: string; status: string } | { tool: string; status: string }> =
      [];
    const detail = () => ({ usage: { ...usage }, toolCalls: [...calls] });
    for (;;) {
      const offerTools = tools.size > 0 && calls.length < config.maxToolCalls;
      const body = {
        model: config.model,
        messages,
        ...(offerTools ? { tools: [...tools.values()].map((t) => t.definition) } : {}),
      };
      const reply = await send(url, token, body);
      usage.modelCalls += 1;
      if (!reply.ok) return { ok: false, error: reply.error, detail: detail() };
      const parsed = Completion.safeParse(reply.json);
      if (!parsed.success) {
        return {
          ok: false,
          error: "the model's answer is not a chat completion",
          detail: detail(),
        };
      }
      usage.promptTokens += parsed.data.usage?.prompt_tokens ?? 0;
      usage.completionTokens += parsed.data.usage?.completion_tokens ?? 0;
      usage.totalTokens += parsed.data.usage?.total_tokens ?? 0;
      const message = (parsed.data.choices[0] as (typeof parsed.data.choices)[number]).message;
      const toolCalls = message.tool_calls ?? [];
      if (toolCalls.length === 0) {
        return { ok: true, output: parseOutput(message.content ?? ""), detail: detail() };
      }
      if (!offerTools) {
        return {
          ok: false,
          error: `the model kept calling tools after maxToolCalls (${config.maxToolCalls})`,
          detail: detail(),
        };
      }
      messages.push({ role: "assistant", content: message.content ?? null, tool_calls: toolCalls });
      for (const call of toolCalls) {
        const tool = tools.get(call.function.name);
        let content: string;
        if (calls.length >= config.maxToolCalls) {
          content = JSON.stringify({ status: "refused", error: "maxToolCalls reached" });
        } else if (!tool) {
          content = JSON.stringify({ status: "failed", error: `no tool ${call.function.name}` });
        } else if ("extra" in tool) {
          const result = await tool.extra.run(call.function.arguments);
          calls.push({ tool: tool.extra.name, status: result.status });
          content = result.content;
        } else {
          const result = await runTool(services, owner, {
            webhookId: tool.webhookId,
            eventId: request.eventId,
            nodeId: request.nodeId,
            arguments: call.function.arguments,
          });
          calls.push({ webhookId: tool.webhookId, status: result.status });
          content = result.content;
        }
        messages.push({ role: "tool", tool_call_id: call.id, content });
      }
    }
  };
  return { complete };
}
