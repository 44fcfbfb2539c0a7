/**
 * Verifies a delivery from Hookflow: `X-Hookflow-Signature` (`t=<unix ms>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">`, keyed with the whole secret text) or, when that header is absent, the Standard
 * Webhooks headers (`webhook-id`, `webhook-timestamp` in seconds, `webhook-signature`:
 * `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the base64 after `whsec_`).
 * Uses WebCrypto only, so it runs in Node 20+, Deno, Bun, workers and browsers; the MAC comparison
 * is WebCrypto's own `verify`, which is constant-time.
 */

export type WebhookHeaders =
  | Headers
  | Record<string, string | readonly string[] | undefined>
  | Iterable<readonly [string, string]>;

export type WebhookBody = string | Uint8Array | ArrayBuffer;

export interface VerifyWebhookOptions {
  /** Largest accepted distance between the signed timestamp and now, both ways (default 300 s). */
  toleranceSeconds?: number;
  /** The current time in milliseconds (tests). */
  now?: () => number;
}

export type VerifyWebhookFailure =
  | "missing_header"
  | "malformed"
  | "expired"
  | "future"
  | "mismatch";

export type VerifyWebhookResult =
  | {
      ok: true;
      scheme: "hookflow" | "standard-webhooks";
      /** The signed timestamp. */
      timestamp: Date;
      /** `X-Hookflow-Event-Id` / `webhook-id`: deduplicate on it (delivery is at least once). */
      eventId: string | undefined;
    }
  | { ok: false; reason: VerifyWebhookFailure };

const encoder = new TextEncoder();
const DIGITS = /^\d{1,16}$/;
const HEX_64 = /^[0-9a-fA-F]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function headerReader(headers: WebhookHeaders): (name: string) => string | undefined {
  if (typeof Headers !== "undefined" && headers instanceof Headers) {
    return (name) => headers.get(name) ?? undefined;
  }
  const entries: Iterable<readonly [string, string | readonly string[] | undefined]> =
    Symbol.iterator in headers
      ? (headers as Iterable<readonly [string, string]>)
      : Object.entries(headers as Record<string, string | readonly string[] | undefined>);
  const map = new Map<string, string>();
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    map.set(key.toLowerCase(), typeof value === "string" ? value : value.join(","));
  }
  return (name) => map.get(name);
}

function bytesOf(body: WebhookBody): Uint8Array {
  if (typeof body === "string") return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

function concat(prefix: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(prefix);
  const out = new Uint8Array(head.length + body.length);
  out.set(head, 0);
  out.set(body, head.length);
  return out;
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!BASE64.test(text)) return undefined;
  try {
    const binary = atob(text);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

function hmacKey(secret: Uint8Array<ArrayBuffer>): Promise<HmacKey> {
  return crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, [
    "verify",
  ]);
}

/** Stale or future beyond the tolerance, else undefined. */
function ageProblem(signedMs: number, nowMs: number, toleranceMs: number) {
  if (nowMs - signedMs > toleranceMs) return "expired" as const;
  if (signedMs - nowMs > toleranceMs) return "future" as const;
  return undefined;
}

async function anyMatches(
  key: HmacKey,
  signatures: Array<Uint8Array<ArrayBuffer>>,
  data: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  let matched = false;
  // Every candidate is checked, so the time taken does not tell which one matched.
  for (const signature of signatures) {
    if (await crypto.subtle.verify("HMAC", key, signature, data)) matched = true;
  }
  return matched;
}

/** What a scheme's headers claim: a timestamp, and MACs of `data` under `key`. */
interface SignedClaim {
  timestampMs: number;
  key: Uint8Array<ArrayBuffer>;
  data: Uint8Array<ArrayBuffer>;
  candidates: Array<Uint8Array<ArrayBuffer>>;
}

type Checked = { ok: true; timestampMs: number } | { ok: false; reason: VerifyWebhookFailure };

function hookflowClaim(header: string, body: Uint8Array, secret: string): SignedClaim | undefined {
  let t: string | undefined;
  const candidates: Array<Uint8Array<ArrayBuffer>> = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === "t") t = value;
    else if (name === "v1" && HEX_64.test(value)) candidates.push(hexBytes(value));
  }
  if (t === undefined || !DIGITS.test(t) || candidates.length === 0) return undefined;
  const key = encoder.encode(secret);
  return { timestampMs: Number(t), key, data: concat(`${t}.`, body), candidates };
}

function standardClaim(
  id: string,
  timestamp: string,
  header: string,
  body: Uint8Array,
  secret: string,
): SignedClaim | undefined {
  if (!DIGITS.test(timestamp)) return undefined;
  const key = base64Bytes(secret.startsWith("whsec_") ? secret.slice(6) : secret);
  const candidates = header
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .flatMap((entry) => {
      const bytes = base64Bytes(entry.slice(3));
      return bytes ? [bytes] : [];
    });
  if (!key || candidates.length === 0) return undefined;
  const data = concat(`${id}.${timestamp}.`, body);
  return { timestampMs: Number(timestamp) * 1000, key, data, candidates };
}

/** The age check first (no MAC work for a stale request), then the MACs. */
async function check(
  claim: SignedClaim | undefined,
  nowMs: number,
  toleranceMs: number,
): Promise<Checked> {
  if (!claim) return { ok: false, reason: "malformed" };
  const problem = ageProblem(claim.timestampMs, nowMs, toleranceMs);
  if (problem) return { ok: false, reason: problem };
  const matched = await anyMatches(await hmacKey(claim.key), claim.candidates, claim.data);
  return matched ? { ok: true, timestampMs: claim.timestampMs } : { ok: false, reason: "mismatch" };
}

/**
 * Checks that a request really comes from Hookflow, for this body, recently. Pass the raw body
 * exactly as received (not re-serialized JSON). Resolves to `{ ok: true, scheme, timestamp,
 * eventId }` or `{ ok: false, reason }`; it never throws for a bad request. Timestamps further
 * than `toleranceSeconds` (default 300) in the past (`expired`) or the future (`future`) fail.
 */
export async function verifyWebhook(
  headers: WebhookHeaders,
  rawBody: WebhookBody,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<VerifyWebhookResult> {
  const read = headerReader(headers);
  const nowMs = options.now?.() ?? Date.now();
  const toleranceMs = (options.toleranceSeconds ?? 300) * 1000;
  const body = bytesOf(rawBody);
  const hookflow = read("x-hookflow-signature");
  const id = read("webhook-id");
  const timestamp = read("webhook-timestamp");
  const standard = read("webhook-signature");
  let claim: SignedClaim | undefined;
  let scheme: "hookflow" | "standard-webhooks";
  if (hookflow) {
    scheme = "hookflow";
    claim = hookflowClaim(hookflow, body, secret);
  } else if (id && timestamp && standard) {
    scheme = "standard-webhooks";
    claim = standardClaim(id, timestamp, standard, body, secret);
  } else {
    return { ok: false, reason: "missing_header" };
  }
  const result = await check(claim, nowMs, toleranceMs);
  if (!result.ok) return result;
  return {
    ok: true,
    scheme,
    timestamp: new Date(result.timestampMs),
    eventId: read("x-hookflow-event-id") ?? id,
  };
}
