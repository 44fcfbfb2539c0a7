/** One dispatched server-sent event. `id` is the last event id in effect when it was dispatched. */
export interface SseMessage {
  event: string;
  data: string;
  id: string;
}

/**
 * Incremental parser of the `text/event-stream` format (WHATWG HTML, server-sent events): feed
 * it text as it arrives, in any chunking. Comments (`: ...`) are reported separately.
 */
export function createSseParser(handlers: {
  onMessage: (message: SseMessage) => void;
  onComment?: (text: string) => void;
  onRetry?: (ms: number) => void;
}) {
  let buffer = "";
  let data: string[] = [];
  let event = "";
  let lastId = "";
  let pendingCr = false;

  const dispatch = () => {
    if (data.length === 0) {
      event = "";
      return;
    }
    handlers.onMessage({ event: event || "message", data: data.join("\n"), id: lastId });
    data = [];
    event = "";
  };

  const line = (text: string) => {
    if (text === "") return dispatch();
    if (text.startsWith(":")) return handlers.onComment?.(text.slice(1).trimStart());
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "data":
        data.push(value);
        return;
      case "event":
        event = value;
        return;
      case "id":
        if (!value.includes("\0")) lastId = value;
        return;
      case "retry":
        if (/^\d+$/.test(value)) handlers.onRetry?.(Number(value));
        return;
    }
  };

  return {
    push: (chunk: string) => {
      let text = chunk;
      // A CR ending the previous chunk may be the first half of CRLF.
      if (pendingCr && text.startsWith("\n")) text = text.slice(1);
      pendingCr = false;
      buffer += text;
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        if (!match) break;
        if (match[0] === "\r" && match.index === buffer.length - 1) pendingCr = true;
        line(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
      }
    },
  };
}

export interface SseConnection {
  status: number;
  headers: Headers;
  /** The whole body when the response was not an event stream (an error, a 204). */
  text: string | null;
  /** Every message received so far, in order. */
  messages: SseMessage[];
  comments: string[];
  /** Resolves with the next message not yet returned by `next` (rejects after `timeoutMs`). */
  next: (timeoutMs?: number) => Promise<SseMessage>;
  /** Resolves once the server ended the stream (or the client closed it). */
  ended: Promise<void>;
  /** Closes the connection from the client's side. */
  close: () => void;
}

/** Opens `url` as an event stream over a real HTTP connection (fetch, streamed body). */
export async function openSse(
  url: string,
  options: { headers?: Record<string, string> } = {},
): Promise<SseConnection> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", ...options.headers },
    signal: abort.signal,
  });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  let read = 0;
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };

  const isStream = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  let text: string | null = null;
  let ended: Promise<void>;
  let finished = false;
  if (!isStream || !response.body) {
    text = await response.text();
    finished = true;
    ended = Promise.resolve();
  } else {
    const parser = createSseParser({
      onMessage: (message) => {
        messages.push(message);
        wake();
      },
      onComment: (comment) => comments.push(comment),
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    ended = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.push(value);
        }
      } catch {
        // Aborted by close(), or the connection was cut: either way the stream is over.
      } finally {
        finished = true;
        wake();
      }
    })();
  }

  return {
    status: response.status,
    headers: response.headers,
    text,
    messages,
    comments,
    next: (timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const deadline = setTimeout(() => {
          reject(new Error(`no SSE message within ${timeoutMs} ms (got ${messages.length})`));
        }, timeoutMs);
        const check = () => {
          const message = messages[read];
          if (message) {
            read++;
            clearTimeout(deadline);
            resolve(message);
          } else if (finished) {
            clearTimeout(deadline);
            reject(new Error(`stream ended after ${messages.length} messages`));
          } else {
            waiters.push(check);
          }
        };
        check();
      }),
    ended,
    close: () => abort.abort(),
  };
}
