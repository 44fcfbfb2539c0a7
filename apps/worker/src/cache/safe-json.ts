/** Parses JSON text; undefined when it is not JSON (the caller's schema then rejects it). */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
