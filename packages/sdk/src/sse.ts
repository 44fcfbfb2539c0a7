/** One server-sent event: its name, its data text and the last event id in effect. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id: string;
}

/**
 * The messages of a `text/event-stream` body as they arrive (the WHATWG format: `event:`,
 * `data:`, `id:` fields, blank line ends a message, comments ignored).
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  lastId = "",
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id = lastId;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r\n|\r|\n/);
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        const width = buffer.startsWith("\r\n", newline) ? 2 : 1;
        buffer = buffer.slice(newline + width);
        newline = buffer.search(/\r\n|\r|\n/);
        if (line === "") {
          if (data.length > 0) yield { event: event || "message", data: data.join("\n"), id };
          event = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const raw = colon < 0 ? "" : line.slice(colon + 1);
        const value = raw.startsWith(" ") ? raw.slice(1) : raw;
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else if (field === "id" && !value.includes("\0")) id = value;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
