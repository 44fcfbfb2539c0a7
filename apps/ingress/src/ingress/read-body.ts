import { ValidationError } from "@hookflow/domain";

// The size-checked read is shared with the api's body limit.
export { assertDeclaredLength, readRawBody } from "@hookflow/domain";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body as text and its JSON value; any JSON value is accepted (object, array, scalar). */
export function parseJsonBody(raw: Uint8Array): { text: string; payload: unknown } {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new ValidationError("body: Invalid UTF-8");
  }
  try {
    return { text, payload: JSON.parse(text) };
  } catch {
    throw new ValidationError("body: Invalid JSON");
  }
}
