import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the stand-in received: its parsed JSON body and its authorization header. */
export interface ChatStandInRequest {
  path: string;
  authorization: string | undefined;
  body: {
    model?: string;
    messages?: Array<Record<string, unknown>>;
    tools?: Array<Record<string, unknown>>;
  };
}

/** One scripted answer: a status (default 200), headers, and a JSON body. */
export interface ChatStandInReply {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface ChatStandIn {
  /** The base URL to configure (`{url}/chat/completions` is served). */
  url: string;
  requests: ChatStandInRequest[];
  /** Sets how each request is answered (by the request and its index). */
  script: (next: (request: ChatStandInRequest, index: number) => ChatStandInReply) => void;
  close: () => Promise<void>;
}

/** A chat completion whose message calls one function tool. */
export function toolCallReply(name: string, args: unknown, id = "call_1"): ChatStandInReply {
  return {
    body: {
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              { id, type: "function", function: { name, arguments: JSON.stringify(args) } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    },
  };
}

/** A chat completion whose message is a final answer. */
export function answerReply(content: string): ChatStandInReply {
  return {
    body: {
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
      usage: { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 },
    },
  };
}

function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        resolve({});
      }
    });
  });
}

/**
 * A local OpenAI-compatible chat-completions server whose answers a test scripts (tool calls,
 * final answers, 429s): AI nodes are tested against it instead of a real model.
 */
export async function startChatStandIn(): Promise<ChatStandIn> {
  const requests: ChatStandInRequest[] = [];
  let handler: (request: ChatStandInRequest, index: number) => ChatStandInReply = () =>
    answerReply("ok");
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const request: ChatStandInRequest = {
      path: req.url ?? "/",
      authorization: req.headers.authorization,
      body: (await readJson(req)) as ChatStandInRequest["body"],
    };
    requests.push(request);
    const reply = handler(request, requests.length - 1);
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    res.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (next) => {
      handler = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
