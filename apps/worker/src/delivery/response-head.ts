import type { Readable } from "node:stream";

/**
 * Reads a response body up to `limit` bytes and destroys the stream there, so a target that
 * answers with an endless body costs at most `limit` bytes (and its connection). Resolves with
 * what was read (possibly past `limit` by the last chunk's size). Reads with `data` events rather
 * than an async iterator: a delivery reads one small body per request, and the iterator's
 * promise per chunk and end-of-stream bookkeeping cost more than the read itself.
 */
export function readHead(body: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      body.off("data", onData);
      body.off("end", onEnd);
      body.off("error", onError);
    };
    const finish = () => {
      stop();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size < limit) return;
      finish();
      // Whatever the stream reports while it is torn down is of no interest any more.
      body.on("error", () => {});
      body.destroy();
    };
    const onEnd = () => finish();
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    body.on("data", onData);
    body.once("end", onEnd);
    body.once("error", onError);
  });
}

/**
 * The first `limit` bytes of `buffer` as UTF-8, without the character the limit cuts in two
 * (a cut character would otherwise decode as U+FFFD).
 */
export function utf8Head(buffer: Buffer, limit: number): string {
  if (buffer.length <= limit) return buffer.toString("utf8");
  let lead = limit - 1;
  // Back over continuation bytes (10xxxxxx) to the byte that starts the last character.
  while (lead > limit - 4 && lead > 0 && ((buffer[lead] ?? 0) & 0xc0) === 0x80) lead--;
  const first = buffer[lead] ?? 0;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return buffer.toString("utf8", 0, lead + length > limit ? lead : limit);
}
