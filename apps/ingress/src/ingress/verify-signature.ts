import {
  type IncomingSignatureType,
  UnauthorizedError,
  type VerifyFailureReason,
  verifyIncomingSignature,
  WEBHOOK_SIGNATURE_TYPES,
} from "@hookflow/domain";
import type { AcceptingWebhook } from "./find-accepting-webhook.js";

const SIGNATURE_TYPES = new Set<string>(WEBHOOK_SIGNATURE_TYPES);

const SIGNATURE_MESSAGES: Record<VerifyFailureReason, string> = {
  missing_header: "Missing signature header",
  malformed: "Malformed signature header",
  expired: "Signature timestamp is too old",
  mismatch: "Invalid signature",
};

/** Reads one request header; undefined when absent. */
export type Header = (name: string) => string | undefined;

/** 401 unless the body carries the signature the webhook asks for. */
export function verifySignature(
  webhook: AcceptingWebhook,
  header: Header,
  raw: Uint8Array,
  nowMs: number,
): void {
  // An unknown type in the row fails closed: verification against it can never pass.
  const type = SIGNATURE_TYPES.has(webhook.incomingSignatureType)
    ? (webhook.incomingSignatureType as IncomingSignatureType)
    : null;
  const verified = type
    ? verifyIncomingSignature({
        type,
        secret: webhook.incomingSignatureSecret,
        headers: header,
        rawBody: raw,
        nowMs,
      })
    : ({ ok: false, reason: "mismatch" } as const);
  if (!verified.ok) throw new UnauthorizedError(SIGNATURE_MESSAGES[verified.reason]);
}
