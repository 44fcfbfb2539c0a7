import { z } from "zod";

/**
 * AI nodes (docs/decisions.md, AI nodes): an OpenAI-compatible chat completion on the rendered
 * prompt, with one function tool per tool webhook (its pipeline runs when the model calls it).
 */

export const AI_PROMPT_MAX_LENGTH = 32 * 1024;
export const AI_MAX_TOOL_CALLS = 20;

const id = () => z.string().trim().min(1).max(100);

export const AiNodeConfig = z.object({
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .meta({
      description:
        "OpenAI-compatible API root: `POST {baseUrl}/chat/completions` (https://api.openai.com/v1, http://localhost:11434/v1 for Ollama, a vLLM server's /v1)",
    }),
  model: z.string().trim().min(1).max(200),
  credentialId: id()
    .nullish()
    .meta({ description: "Credential whose secret is sent as the bearer token (none: no token)" }),
  systemPrompt: z.string().max(AI_PROMPT_MAX_LENGTH),
  promptTemplate: z.string().min(1).max(AI_PROMPT_MAX_LENGTH).meta({
    description: "Handlebars template rendered with the event's payload: the user message",
  }),
  toolWebhookIds: z.array(id()).max(20).meta({
    description: "Webhooks the model may call as tools (each needs acceptsInternalCalls)",
  }),
  maxToolCalls: z.number().int().min(0).max(AI_MAX_TOOL_CALLS),
});
export type AiNodeConfig = z.infer<typeof AiNodeConfig>;

/** A tool's function name: `webhook_` and the webhook id (OpenAI allows [a-zA-Z0-9_-]{1,64}). */
export function toolNameOf(webhookId: string): string {
  return `webhook_${webhookId}`.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}
