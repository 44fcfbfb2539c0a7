import { hmacSha256, safeEqual } from "./hmac.js";

/** A stream token is valid for 120 s after it is issued (docs/decisions.md, "Live steps, stream and sync mode"). */
export const STREAM_TOKEN_TTL_MS = 120_000;

export type StreamTokenResult =
  | { ok: true }
  | { ok: false; reason: "malformed" | "mismatch" | "expired" | "wrong_event" };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function mac(secret: string, claims: string): string {
  return hmacSha256(secret, [claims]).toString("base64url");
}

/**
 * Stateless token for `GET /events/:eventId/stream`:
 * `base64url(eventId + "." + expiryMs) + "." + base64url(HMAC-SHA256(secret, first part))`.
 */
export function createStreamToken(secret: string, eventId: string, expiresAtMs: number): string {
  const claims = Buffer.from(`${eventId}.${Math.trunc(expiresAtMs)}`, "utf8").toString("base64url");
  return `${claims}.${mac(secret, claims)}`;
}

/** Checks the MAC first, then that the token names `eventId`, then that it has not expired. */
export function verifyStreamToken(
  secret: string,
  token: string | null | undefined,
  eventId: string,
  nowMs: number,
): StreamTokenResult {
  if (!token) return { ok: false, reason: "malformed" };
  const parts = token.split(".");
  const [claims, signature] = parts;
  if (parts.length !== 2 || !claims || !signature) return { ok: false, reason: "malformed" };
  if (!BASE64URL.test(claims) || !BASE64URL.test(signature)) {
    return { ok: false, reason: "malformed" };
  }
  if (!safeEqual(signature, mac(secret, claims))) return { ok: false, reason: "mismatch" };
  const decoded = Buffer.from(claims, "base64url").toString("utf8");
  const dot = decoded.lastIndexOf(".");
  const expiry = decoded.slice(dot + 1);
  if (dot < 0 || !/^\d+$/.test(expiry)) return { ok: false, reason: "malformed" };
  if (decoded.slice(0, dot) !== eventId) return { ok: false, reason: "wrong_event" };
  if (nowMs > Number(expiry)) return { ok: false, reason: "expired" };
  return { ok: true };
}
