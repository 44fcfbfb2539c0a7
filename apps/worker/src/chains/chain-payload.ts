/**
 * The chain payload (docs/decisions.md, "Chains"): `{original, previous: {statusCode, body}}`.
 * Pure: no I/O.
 */

export interface ChainPayload {
  original: unknown;
  previous: { statusCode: number; body: unknown };
}

function parseOr<T>(text: string, fallback: T): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

/** A response body as the next step sees it: its JSON when it is JSON, else its text. */
export function previousBody(responseBody: string): unknown {
  return responseBody === "" ? null : parseOr(responseBody, responseBody);
}

/**
 * The original payload of a chain: the origin event's payload for step 1, and for later steps
 * the `original` the step's own body carries.
 */
export function originalOf(body: string, chainStep: number | null): unknown {
  const parsed = parseOr(body, body);
  if (chainStep === null) return parsed;
  if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
    return (parsed as Record<string, unknown>).original ?? null;
  }
  return null;
}

/** The chain headers' values of a step's delivery, read from the step's own (raw) body. */
export function chainHeadersOf(
  rawBody: string,
  step: number,
): { step: number; original: unknown; previous: unknown } {
  const parsed = parseOr(rawBody, null);
  const record =
    parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  return { step, original: record.original ?? null, previous: record.previous ?? null };
}

export function chainPayloadText(payload: ChainPayload): string {
  return JSON.stringify(payload);
}
