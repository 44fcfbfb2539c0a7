import { createSecretKey, type KeyObject } from "node:crypto";
import { hmacSha256, safeEqual, type VerifyResult } from "./hmac.js";

/** Default maximum age of an `X-Hookflow-Signature` timestamp (5 minutes). */
export const HOOKFLOW_SIGNATURE_TOLERANCE_MS = 300_000;
/** Standard Webhooks: timestamps further than this from now (either way) are rejected. */
export const STANDARD_WEBHOOKS_TOLERANCE_SECONDS = 300;

const HEX_64 = /^[0-9a-f]{64}$/i;
const DIGITS = /^\d+$/;

/**
 * `X-Hookflow-Signature` value: `t=<unix ms>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the
 * UTF-8 bytes of the whole secret, `whsec_` prefix included (docs/decisions.md, "Delivery").
 */
export function signHookflow(
  secret: string | KeyObject,
  timestampMs: number,
  body: string | Uint8Array,
) {
  const t = String(Math.trunc(timestampMs));
  const hex = hmacSha256(secret, [`${t}.`, body]).toString("hex");
  return `t=${t},v1=${hex}`;
}

export type VerifyHookflowOptions = { nowMs: number; toleranceMs?: number };

/**
 * Receiver-side check of `X-Hookflow-Signature`: any `v1` may match; a `t` older than `toleranceMs`
 * is expired (`toleranceMs: 0` disables the age check).
 */
export function verifyHookflowSignature(
  secret: string,
  header: string | undefined,
  body: string | Uint8Array,
  { nowMs, toleranceMs = HOOKFLOW_SIGNATURE_TOLERANCE_MS }: VerifyHookflowOptions,
): VerifyResult {
  if (!header) return { ok: false, reason: "missing_header" };
  let t: string | undefined;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") t = value;
    else if (key === "v1") candidates.push(value);
  }
  if (t === undefined || !DIGITS.test(t) || candidates.length === 0) {
    return { ok: false, reason: "malformed" };
  }
  if (toleranceMs > 0 && nowMs - Number(t) > toleranceMs) {
    return { ok: false, reason: "expired" };
  }
  const expected = hmacSha256(secret, [`${t}.`, body]).toString("hex");
  const matched = candidates.some((v) => HEX_64.test(v) && safeEqual(v.toLowerCase(), expected));
  return matched ? { ok: true } : { ok: false, reason: "mismatch" };
}

/** Key bytes of a Standard Webhooks secret: base64 of the part after `whsec_`. */
export function standardWebhooksKey(secret: string): Buffer {
  const encoded = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  return Buffer.from(encoded, "base64");
}

/**
 * `webhook-signature` value: `v1,<base64 HMAC-SHA256 of "<id>.<ts>.<body>">`; `secret` is the
 * `whsec_` secret, or its prepared key (`deliverySigningKeys(secret).standard`).
 */
export function signStandardWebhooks(
  secret: string | KeyObject,
  msgId: string,
  timestampSeconds: number,
  body: string | Uint8Array,
): string {
  const ts = String(Math.trunc(timestampSeconds));
  const key = typeof secret === "string" ? standardWebhooksKey(secret) : secret;
  const mac = hmacSha256(key, [`${msgId}.${ts}.`, body]);
  return `v1,${mac.toString("base64")}`;
}

export type StandardWebhooksHeaders = {
  "webhook-id"?: string | undefined;
  "webhook-timestamp"?: string | undefined;
  "webhook-signature"?: string | undefined;
};

/**
 * Verifier written from the Standard Webhooks spec: all three headers required, timestamp within
 * 5 minutes of now (either direction), header holds space-separated `v1,<base64>` entries and any
 * one match passes.
 */
export function verifyStandardWebhooks(
  secret: string,
  headers: StandardWebhooksHeaders,
  body: string | Uint8Array,
  { nowMs }: { nowMs: number },
): VerifyResult {
  const id = headers["webhook-id"];
  const ts = headers["webhook-timestamp"];
  const sig = headers["webhook-signature"];
  if (!id || !ts || !sig) return { ok: false, reason: "missing_header" };
  if (!DIGITS.test(ts)) return { ok: false, reason: "malformed" };
  if (Math.abs(Math.floor(nowMs / 1000) - Number(ts)) > STANDARD_WEBHOOKS_TOLERANCE_SECONDS) {
    return { ok: false, reason: "expired" };
  }
  const expected = signStandardWebhooks(secret, id, Number(ts), body).slice("v1,".length);
  const entries = sig.split(" ").filter((entry) => entry.length > 0);
  let sawV1 = false;
  for (const entry of entries) {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    sawV1 = true;
    if (safeEqual(entry.slice(comma + 1), expected)) return { ok: true };
  }
  return { ok: false, reason: sawV1 ? "mismatch" : "malformed" };
}

/** A signing secret's two keys, prepared once (a webhook cache entry holds them). */
export interface DeliverySigningKeys {
  /** The UTF-8 bytes of the whole secret, for `X-Hookflow-Signature`. */
  hookflow: KeyObject;
  /** The base64-decoded part after `whsec_`, for the Standard Webhooks signature. */
  standard: KeyObject;
}

export function deliverySigningKeys(secret: string): DeliverySigningKeys {
  return {
    hookflow: createSecretKey(Buffer.from(secret, "utf8")),
    standard: createSecretKey(standardWebhooksKey(secret)),
  };
}

export type DeliveryHeadersInput = {
  eventId: string;
  attempt: number;
  /** The webhook's prepared signing keys; no signature headers without them. */
  keys: DeliverySigningKeys | null | undefined;
  body: string | Uint8Array;
  nowMs: number;
  /** Chained deliveries (docs/decisions.md, "JSON templates") also carry the chain headers. */
  chain?: { step: number; original: unknown; previous: unknown } | undefined;
};

function base64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value ?? null), "utf8").toString("base64");
}

/**
 * Headers of one delivery attempt (docs/decisions.md, "The api's edge" and "Delivery"): Hookflow's own headers plus the
 * Standard Webhooks trio. Signature headers only when a signing secret is set; chain headers only
 * for chained deliveries (Original and Previous are base64 of the JSON text).
 */
export function buildDeliveryHeaders(input: DeliveryHeadersInput): Record<string, string> {
  const { eventId, attempt, keys, body, nowMs, chain } = input;
  const seconds = Math.floor(nowMs / 1000);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-Hookflow-Event-Id": eventId,
    "X-Hookflow-Timestamp": String(seconds),
    "X-Hookflow-Delivery-Attempt": String(attempt),
    "X-Hookflow-Attempt": String(attempt),
    "webhook-id": eventId,
    "webhook-timestamp": String(seconds),
  };
  if (keys) {
    headers["X-Hookflow-Signature"] = signHookflow(keys.hookflow, nowMs, body);
    headers["webhook-signature"] = signStandardWebhooks(keys.standard, eventId, seconds, body);
  }
  if (chain) {
    headers["X-Hookflow-Chain-Step"] = String(chain.step);
    headers["X-Hookflow-Chain-Original"] = base64Json(chain.original);
    headers["X-Hookflow-Chain-Previous"] = base64Json(chain.previous);
  }
  return headers;
}
