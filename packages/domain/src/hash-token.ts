import { createHash } from "node:crypto";

/** Session tokens and API keys are stored as this hash only. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
