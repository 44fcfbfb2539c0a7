import { createSseParser, type SseMessage } from "./sse-client.js";

function parse(chunks: string[]) {
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const parser = createSseParser({
    onMessage: (message) => messages.push(message),
    onComment: (comment) => comments.push(comment),
  });
  for (const chunk of chunks) parser.push(chunk);
  return { messages, comments };
}

describe("createSseParser", () => {
  it("reads events, ids, multi-line data and comments", () => {
    const { messages, comments } = parse([
      ': heartbeat\n\nevent: step\nid: 1\ndata: {"a":1}\n\ndata: one\ndata: two\n\n',
    ]);
    expect(messages).toEqual([
      { event: "step", data: '{"a":1}', id: "1" },
      { event: "message", data: "one\ntwo", id: "1" },
    ]);
    expect(comments).toEqual(["heartbeat"]);
  });

  it.each([
    ["split mid-line", ["event: do", "ne\nid: 9\nda", "ta: x\n", "\n"]],
    ["CRLF line ends split between chunks", ["event: done\r", "\nid: 9\r\ndata: x\r\n\r", "\n"]],
    ["lone CR line ends", ["event: done\rid: 9\rdata: x\r\r"]],
  ])("gives the same message whatever the chunking (%s)", (_, chunks) => {
    expect(parse(chunks).messages).toEqual([{ event: "done", data: "x", id: "9" }]);
  });

  it("does not dispatch an event without data", () => {
    expect(parse(["event: step\nid: 3\n\n"]).messages).toEqual([]);
  });
});
