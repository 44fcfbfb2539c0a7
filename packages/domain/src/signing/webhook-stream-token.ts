import { hmacSha256, safeEqual } from "./hmac.js";

/** A webhook stream token is valid this long after it is issued (5 minutes). */
export const WEBHOOK_STREAM_TOKEN_TTL_MS = 300_000;

/** The signed content of a webhook stream token. */
export interface WebhookStreamClaims {
  webhookId: string;
  /** The user it was issued to (per-user stream caps). */
  userId: string;
  expiresAtMs: number;
}

export type WebhookStreamTokenResult =
  | { ok: true; claims: WebhookStreamClaims }
  | { ok: false; reason: "malformed" | "mismatch" | "expired" | "wrong_webhook" };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The MAC input is `webhook-stream.` + the encoded claims: event stream tokens MAC the bare claims
 * and approval links use their own prefix, so no token of one kind passes as another.
 */
function mac(secret: string, claims: string): string {
  return hmacSha256(secret, ["webhook-stream.", claims]).toString("base64url");
}

/**
 * Stateless credential of `GET /api/webhooks/:id/stream` for clients that cannot send headers
 * (EventSource): `base64url(webhookId + "." + userId + "." + expiryMs) + "." + base64url(HMAC)`.
 * Ids never hold a dot (`wh_…`, `usr_…`).
 */
export function createWebhookStreamToken(secret: string, claims: WebhookStreamClaims): string {
  const raw = `${claims.webhookId}.${claims.userId}.${Math.trunc(claims.expiresAtMs)}`;
  const encoded = Buffer.from(raw, "utf8").toString("base64url");
  return `${encoded}.${mac(secret, encoded)}`;
}

/** Checks the MAC, then the shape, then that it names `webhookId`, then the expiry. */
export function verifyWebhookStreamToken(
  secret: string,
  token: string | null | undefined,
  webhookId: string,
  nowMs: number,
): WebhookStreamTokenResult {
  if (!token) return { ok: false, reason: "malformed" };
  const parts = token.split(".");
  const [encoded, signature] = parts;
  if (parts.length !== 2 || !encoded || !signature) return { ok: false, reason: "malformed" };
  if (!BASE64URL.test(encoded) || !BASE64URL.test(signature)) {
    return { ok: false, reason: "malformed" };
  }
  if (!safeEqual(signature, mac(secret, encoded))) return { ok: false, reason: "mismatch" };
  const fields = Buffer.from(encoded, "base64url").toString("utf8").split(".");
  const [tokenWebhook, userId, expiry] = fields;
  if (fields.length !== 3 || !tokenWebhook || !userId || !expiry || !/^\d+$/.test(expiry)) {
    return { ok: false, reason: "malformed" };
  }
  if (tokenWebhook !== webhookId) return { ok: false, reason: "wrong_webhook" };
  const expiresAtMs = Number(expiry);
  if (nowMs > expiresAtMs) return { ok: false, reason: "expired" };
  return { ok: true, claims: { webhookId, userId, expiresAtMs } };
}
