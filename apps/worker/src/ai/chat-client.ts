import { checkTargetUrl } from "@hookflow/domain";
import { Agent, request } from "undici";
import { guardedLookup } from "../delivery/guarded-lookup.js";

/** The biggest chat-completions answer read (a longer one fails the call). */
const CHAT_RESPONSE_LIMIT_BYTES = 1024 * 1024;

export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatRequest {
  url: string;
  token: string | undefined;
  body: Record<string, unknown>;
}

export type ChatReply =
  | { ok: true; json: unknown }
  | { ok: false; status: number; error: string; retryAfterMs?: number };

/**
 * One `POST /chat/completions` to a model server. Private addresses are refused unless
 * ALLOW_PRIVATE_TARGETS (the guard of delivery targets: a tenant's baseUrl reaches nothing a
 * webhook target could not); no redirect is followed; the answer is read up to 1 MiB.
 */
export function createChatClient(options: { timeoutMs: number; allowPrivateTargets: boolean }) {
  const agent = new Agent({
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: {
      timeout: options.timeoutMs,
      ...(options.allowPrivateTargets ? {} : { lookup: guardedLookup }),
    },
  });
  const send = async (input: ChatRequest): Promise<ChatReply> => {
    const check = checkTargetUrl(input.url, { allowPrivate: options.allowPrivateTargets });
    if (!check.ok) {
      return {
        ok: false,
        status: 0,
        error: `model server refused: ${check.reason.replaceAll("_", " ")}`,
      };
    }
    try {
      const response = await request(input.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Hookflow-AI/1",
          ...(input.token ? { authorization: `Bearer ${input.token}` } : {}),
        },
        body: JSON.stringify(input.body),
        dispatcher: agent,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > CHAT_RESPONSE_LIMIT_BYTES) {
          return {
            ok: false,
            status: response.statusCode,
            error: "the model's answer is larger than 1 MiB",
          };
        }
        chunks.push(chunk);
      }
      const text = Buffer.concat(chunks).toString("utf8");
      if (response.statusCode < 200 || response.statusCode >= 300) {
        const header = response.headers["retry-after"];
        const retryAfter = Array.isArray(header) ? header[0] : header;
        const seconds = retryAfter === undefined ? Number.NaN : Number(retryAfter);
        return {
          ok: false,
          status: response.statusCode,
          error: `the model server answered ${response.statusCode}: ${text.slice(0, 200)}`,
          ...(Number.isFinite(seconds) ? { retryAfterMs: seconds * 1000 } : {}),
        };
      }
      return { ok: true, json: JSON.parse(text) as unknown };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, status: 0, error: `model server: ${message}` };
    }
  };
  return { send, close: () => agent.close() };
}
export type ChatClient = ReturnType<typeof createChatClient>;
