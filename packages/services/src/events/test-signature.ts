import {
  type IncomingSignatureType,
  signIncomingForTest,
  ValidationError,
  verifyIncomingSignature,
} from "@hookflow/domain";

const SIGNATURE_TYPES: readonly IncomingSignatureType[] = ["none", "custom", "github", "stripe"];

export function signatureTypeOf(value: string): IncomingSignatureType {
  const type = SIGNATURE_TYPES.find((known) => known === value);
  if (!type) throw new Error(`webhook has an unknown incoming signature type: ${value}`);
  return type;
}

/** Stored in place of a signature's value: the header shows the event was signed, nothing more. */
const REDACTED_SIGNATURE = "[redacted]";

/**
 * Signature headers a real sender would attach to `body`, checked against the verifier, then
 * redacted: the signature exists only in memory, never in the stored event or the answer.
 */
export function testSignatureHeaders(
  type: IncomingSignatureType,
  secret: string | null,
  body: string,
  nowMs: number,
): Record<string, string> {
  const signed = signIncomingForTest({ type, secret, rawBody: body, nowMs });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed)) headers[name.toLowerCase()] = value;
  if (Object.keys(headers).length === 0) {
    throw new ValidationError("includeSignature: the webhook has no incoming signature secret");
  }
  const verdict = verifyIncomingSignature({
    type,
    secret,
    headers: (name) => headers[name.toLowerCase()],
    rawBody: Buffer.from(body, "utf8"),
    nowMs,
  });
  if (!verdict.ok) throw new Error(`test signature failed its own verification: ${verdict.reason}`);
  return Object.fromEntries(Object.keys(headers).map((name) => [name, REDACTED_SIGNATURE]));
}
