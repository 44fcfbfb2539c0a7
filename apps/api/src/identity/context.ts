import type { Database } from "@hookflow/db";
import type { LoginOutcome } from "../http/api-metrics.js";
import type { ApiServices } from "../services.js";
import type { LoginThrottle } from "./login-throttle.js";
import type { PasswordHasher } from "./password-hasher.js";

/** What the identity verbs need: the database and a clock. The CLI builds one from config. */
export interface IdentityContext {
  db: Database;
  now: () => Date;
  /** Hashing in turns (the api); without it a hash runs at once (the CLI's one-off users). */
  passwords?: PasswordHasher;
}

/** Verbs that open sessions also need their lifetime. */
export interface SessionContext extends IdentityContext {
  sessionTtlSeconds: number;
}

/** Login also counts attempts (in Redis) and checks passwords in turns. */
export interface LoginContext extends SessionContext {
  passwords: PasswordHasher;
  throttle: LoginThrottle;
  onAttempt: (outcome: LoginOutcome) => void;
}

/** The identity context of a running api. */
export function identityContextOf(services: ApiServices): LoginContext {
  return {
    db: services.db.db,
    now: () => services.now(),
    sessionTtlSeconds: services.config.sessionTtlSeconds,
    passwords: services.passwords,
    throttle: services.loginThrottle,
    onAttempt: (outcome) => services.apiMetrics.loginAttempts.inc({ outcome }),
  };
}
