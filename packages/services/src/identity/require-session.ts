import { ForbiddenError } from "@hookflow/domain";
import type { Actor } from "../actor.js";

/** Identity management (organizations, API keys) is for people, not for API keys. */
export function requireSession(actor: Actor, what: string): void {
  if (actor.kind !== "session")
    throw new ForbiddenError(`${what} needs a session token, not an API key`);
}
