import { PayloadTooLargeError } from "../errors.js";

/**
 * Reads the raw request body, refusing it as soon as it passes `maxBytes`: a declared
 * Content-Length is checked before reading, and the bytes are counted while reading (the header
 * may be absent or wrong with chunked uploads).
 */
export async function readRawBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (assertDeclaredLength(request, maxBytes) !== null) {
    // A declared length within the limit: the HTTP parser delivers exactly that many bytes, so
    // the body can be read whole. This is the server adapter's fast path (no web stream). The
    // check after reading covers in-process requests, where nothing enforces the header.
    const body = new Uint8Array(await request.arrayBuffer());
    if (body.byteLength > maxBytes) throw tooLarge(maxBytes);
    return body;
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * Refuses a body whose declared Content-Length is over the limit, before reading anything.
 * Returns the declared length, or null when none (or no valid one) was declared.
 */
export function assertDeclaredLength(request: Request, maxBytes: number): number | null {
  const declared = request.headers.get("content-length");
  if (declared === null || !/^\d+$/.test(declared)) return null;
  const length = Number(declared);
  if (length > maxBytes) throw tooLarge(maxBytes);
  return length;
}

function tooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`Payload exceeds the limit of ${maxBytes} bytes`);
}
