import { hmacSha256, safeEqual } from "./hmac.js";

/** What an approval decision sets a waiting gate to. */
export const APPROVAL_DECISIONS = ["approved", "rejected"] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** The signed content of an emailed approve or reject link. */
export interface ApprovalLinkClaims {
  /** The `event_parks` row of the waiting path. */
  parkId: string;
  decision: ApprovalDecision;
  /** The link stops working after this instant (the gate's timeout). */
  expiresAtMs: number;
}

export type ApprovalLinkResult =
  | { ok: true; claims: ApprovalLinkClaims }
  | { ok: false; reason: "malformed" | "mismatch" | "expired" };

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The MAC input is `approval-link.` + the encoded claims. Stream tokens MAC the bare encoded
 * claims (which never hold a dot), so a token of one kind can never pass as the other even though
 * both are keyed with the same server secret.
 */
function mac(secret: string, claims: string): string {
  return hmacSha256(secret, ["approval-link.", claims]).toString("base64url");
}

function isDecision(value: string): value is ApprovalDecision {
  return (APPROVAL_DECISIONS as readonly string[]).includes(value);
}

/**
 * Stateless token of an emailed approve or reject link:
 * `base64url(parkId + "." + decision + "." + expiryMs) + "." + base64url(HMAC-SHA256)`.
 * The token only proves what the link may do; single use is the database's conditional update.
 */
export function createApprovalLinkToken(secret: string, claims: ApprovalLinkClaims): string {
  const raw = `${claims.parkId}.${claims.decision}.${Math.trunc(claims.expiresAtMs)}`;
  const encoded = Buffer.from(raw, "utf8").toString("base64url");
  return `${encoded}.${mac(secret, encoded)}`;
}

/** Checks the MAC first, then the claims' shape, then the expiry against the injected clock. */
export function verifyApprovalLinkToken(
  secret: string,
  token: string | null | undefined,
  nowMs: number,
): ApprovalLinkResult {
  if (!token) return { ok: false, reason: "malformed" };
  const parts = token.split(".");
  const [encoded, signature] = parts;
  if (parts.length !== 2 || !encoded || !signature) return { ok: false, reason: "malformed" };
  if (!BASE64URL.test(encoded) || !BASE64URL.test(signature)) {
    return { ok: false, reason: "malformed" };
  }
  if (!safeEqual(signature, mac(secret, encoded))) return { ok: false, reason: "mismatch" };
  const fields = Buffer.from(encoded, "base64url").toString("utf8").split(".");
  const expiry = fields.pop() ?? "";
  const decision = fields.pop() ?? "";
  const parkId = fields.join(".");
  if (!/^\d+$/.test(expiry) || !isDecision(decision) || parkId === "") {
    return { ok: false, reason: "malformed" };
  }
  const expiresAtMs = Number(expiry);
  if (nowMs > expiresAtMs) return { ok: false, reason: "expired" };
  return { ok: true, claims: { parkId, decision, expiresAtMs } };
}
