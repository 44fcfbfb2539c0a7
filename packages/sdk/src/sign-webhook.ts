/**
 * Signs a body the way Hookflow signs its deliveries: `X-Hookflow-Signature` (`t=<unix ms>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>">`, keyed with the whole secret text) and the Standard Webhooks trio
 * (`webhook-id`, `webhook-timestamp` in seconds, `webhook-signature`: `v1,<base64 HMAC-SHA256 of
 * "<id>.<seconds>.<body>">`, keyed with the base64 after `whsec_`). For tests of receivers and
 * for `hookflow listen`, which re-signs what it forwards; `verifyWebhook` accepts the result.
 */
export async function signWebhook(
  secret: string,
  body: string | Uint8Array,
  options: { eventId: string; timestampMs?: number },
): Promise<Record<string, string>> {
  const encoder = new TextEncoder();
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const ms = Math.trunc(options.timestampMs ?? Date.now());
  const seconds = Math.floor(ms / 1000);
  const mac = async (key: Uint8Array<ArrayBuffer>, prefix: string) => {
    const imported = await crypto.subtle.importKey(
      "raw",
      key,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const head = encoder.encode(prefix);
    const data = new Uint8Array(head.length + bytes.length);
    data.set(head, 0);
    data.set(bytes, head.length);
    return new Uint8Array(await crypto.subtle.sign("HMAC", imported, data));
  };
  const hex = [...(await mac(encoder.encode(secret), `${ms}.`))]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
  const encoded = secret.startsWith("whsec_") ? secret.slice(6) : secret;
  const binary = atob(encoded);
  const key = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) key[i] = binary.charCodeAt(i);
  const standard = await mac(key, `${options.eventId}.${seconds}.`);
  return {
    "X-Hookflow-Signature": `t=${ms},v1=${hex}`,
    "X-Hookflow-Event-Id": options.eventId,
    "X-Hookflow-Timestamp": String(seconds),
    "webhook-id": options.eventId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": `v1,${btoa(String.fromCharCode(...standard))}`,
  };
}
