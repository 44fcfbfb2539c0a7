import { randomBytes } from "node:crypto";
import { randomToken } from "../ids.js";

export const SIGNING_SECRET_PREFIX = "whsec_";

/** `whsec_` + base64 of 32 random bytes (the Standard Webhooks key form). */
export function newSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

/** 40 url-safe random characters: the credential in `/api/in/<token>`. */
export function newIngressToken(): string {
  return randomToken(40);
}
