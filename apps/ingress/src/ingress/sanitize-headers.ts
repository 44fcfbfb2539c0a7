/** Headers never stored with an event: credentials and signatures. */
const DROPPED = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "stripe-signature",
  "x-hub-signature",
  "x-hub-signature-256",
  "x-webhook-signature",
  "webhook-signature",
]);

/**
 * The request headers as stored on the event (docs/decisions.md, "Delivery": sanitised): lower-case
 * names; credentials and every signature header removed.
 */
export function sanitizeHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (DROPPED.has(lower) || lower.includes("signature")) return;
    out[lower] = value;
  });
  return out;
}
