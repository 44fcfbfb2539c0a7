import type { WebhookSignatureType } from "../webhooks/webhook-input.js";
import { hmacSha256, safeEqual, type VerifyResult } from "./hmac.js";

/** The incoming signature schemes, declared once with the webhook fields (`WEBHOOK_SIGNATURE_TYPES`). */
export type IncomingSignatureType = WebhookSignatureType;

/** Stripe rejects signatures whose `t` is older than this (docs/decisions.md, "Ingress"). */
export const STRIPE_TOLERANCE_SECONDS = 300;

export const INCOMING_SIGNATURE_HEADERS = {
  custom: "x-webhook-signature",
  github: "x-hub-signature-256",
  stripe: "stripe-signature",
} as const;

export type VerifyIncomingInput = {
  type: IncomingSignatureType;
  secret: string | null | undefined;
  /** Header lookup; must be case-insensitive (Hono's `c.req.header` is). */
  headers: (name: string) => string | undefined;
  rawBody: Uint8Array;
  nowMs: number;
};

const SHA256_HEX = /^sha256=([0-9a-fA-F]{64})$/;
const HEX_64 = /^[0-9a-fA-F]{64}$/;
const DIGITS = /^\d+$/;

function hexMac(secret: string, parts: ReadonlyArray<string | Uint8Array>): string {
  return hmacSha256(secret, parts).toString("hex");
}

function verifySha256Header(header: string | undefined, secret: string, rawBody: Uint8Array) {
  if (!header) return { ok: false, reason: "missing_header" } as const;
  const match = SHA256_HEX.exec(header.trim());
  if (!match?.[1]) return { ok: false, reason: "malformed" } as const;
  const ok = safeEqual(match[1].toLowerCase(), hexMac(secret, [rawBody]));
  return ok ? ({ ok: true } as const) : ({ ok: false, reason: "mismatch" } as const);
}

function verifyStripe(
  header: string | undefined,
  secret: string,
  rawBody: Uint8Array,
  nowMs: number,
): VerifyResult {
  if (!header) return { ok: false, reason: "missing_header" };
  let t: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") t = value;
    else if (key === "v1") signatures.push(value);
  }
  if (t === undefined || !DIGITS.test(t) || signatures.length === 0) {
    return { ok: false, reason: "malformed" };
  }
  if (Math.floor(nowMs / 1000) - Number(t) > STRIPE_TOLERANCE_SECONDS) {
    return { ok: false, reason: "expired" };
  }
  const expected = hexMac(secret, [`${t}.`, rawBody]);
  // Compare every candidate so the time taken does not reveal which one matched.
  let matched = false;
  for (const sig of signatures) {
    if (HEX_64.test(sig) && safeEqual(sig.toLowerCase(), expected)) matched = true;
  }
  return matched ? { ok: true } : { ok: false, reason: "mismatch" };
}

/** Verifies a request arriving at the ingress against the webhook's incoming signature settings. */
export function verifyIncomingSignature(input: VerifyIncomingInput): VerifyResult {
  const { type, secret, headers, rawBody, nowMs } = input;
  if (type === "none") return { ok: true };
  const header = headers(INCOMING_SIGNATURE_HEADERS[type]);
  // A verifying webhook without a secret can never accept anything.
  if (!secret)
    return header ? { ok: false, reason: "mismatch" } : { ok: false, reason: "missing_header" };
  switch (type) {
    case "custom":
    case "github":
      return verifySha256Header(header, secret, rawBody);
    case "stripe":
      return verifyStripe(header, secret, rawBody, nowMs);
  }
}

export type SignIncomingInput = {
  type: IncomingSignatureType;
  secret: string | null | undefined;
  rawBody: Uint8Array | string;
  nowMs: number;
};

/**
 * The signature headers a real sender of `type` would attach to `rawBody` (used by the test-event
 * feature with `includeSignature`). Empty for `none` or when no secret is set.
 */
export function signIncomingForTest(input: SignIncomingInput): Record<string, string> {
  const { type, secret, rawBody, nowMs } = input;
  if (type === "none" || !secret) return {};
  switch (type) {
    case "custom":
      return { "X-Webhook-Signature": `sha256=${hexMac(secret, [rawBody])}` };
    case "github":
      return { "X-Hub-Signature-256": `sha256=${hexMac(secret, [rawBody])}` };
    case "stripe": {
      const t = Math.floor(nowMs / 1000);
      return { "Stripe-Signature": `t=${t},v1=${hexMac(secret, [`${t}.`, rawBody])}` };
    }
  }
}
