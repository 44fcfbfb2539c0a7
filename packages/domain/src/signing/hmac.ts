import { createHmac, type KeyObject, timingSafeEqual } from "node:crypto";

/** Outcome of every signature check: expected failures are values, not exceptions. */
export type VerifyResult =
  | { ok: true }
  | { ok: false; reason: "missing_header" | "malformed" | "expired" | "mismatch" };

export type VerifyFailureReason = Extract<VerifyResult, { ok: false }>["reason"];

/**
 * HMAC-SHA256 over the concatenation of `parts` (strings as UTF-8, bytes as they are). A key used
 * for many messages is best given as a `KeyObject` (see `deliverySigningKeys`): Node prepares a
 * byte key on every call, which costs several times the MAC of a 1 KB body.
 */
export function hmacSha256(
  key: string | Uint8Array | KeyObject,
  parts: ReadonlyArray<string | Uint8Array>,
) {
  const mac = createHmac("sha256", key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/**
 * Constant-time comparison of two strings. Inputs of different lengths are unequal; the check is
 * still done on equal-length buffers so timingSafeEqual never throws.
 */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
