import type { HookflowConfig } from "@hookflow/config";
import type { DbHandle } from "@hookflow/db";
import type { LoginThrottle } from "./login-throttle.js";
import type { PasswordHasher } from "./password-hasher.js";

/**
 * What the identity verbs need: the database and a clock, as in ServiceContext (the api passes
 * its services). The CLI builds one from config; only the query builder of the handle is used.
 */
export interface IdentityContext {
  db: Pick<DbHandle, "db">;
  now: () => Date;
  /** Hashing in turns (the api); without it a hash runs at once (the CLI's one-off users). */
  passwords?: PasswordHasher;
}

/** Verbs that open sessions also need their lifetime. */
export interface SessionContext extends IdentityContext {
  config: Pick<HookflowConfig, "sessionTtlSeconds">;
}

/** How a login attempt ended, as the api's metrics count it. */
export type LoginOutcome = "success" | "failure" | "throttled";

/** Login also counts attempts (in Redis) and checks passwords in turns. */
export interface LoginContext extends SessionContext {
  passwords: PasswordHasher;
  loginThrottle: LoginThrottle;
  apiMetrics: { loginAttempts: { inc: (labels: { outcome: LoginOutcome }) => void } };
}
