import type { HookflowConfig } from "@hookflow/config";
import { type Database, findUserByEmail } from "@hookflow/db";
import { ConflictError } from "@hookflow/domain";
import { createUserAccount } from "./create-user-account.js";

export type BootstrapResult = { userId: string; created: boolean } | null;

/**
 * Creates the `HOOKFLOW_BOOTSTRAP_EMAIL` user at start when it does not exist yet. An existing
 * user is left alone (its password is not reset). Safe when several replicas start at once.
 */
export async function ensureBootstrapUser(
  ctx: { db: Database; now: () => Date },
  config: Pick<HookflowConfig, "bootstrap">,
): Promise<BootstrapResult> {
  if (!config.bootstrap) return null;
  const { email, password } = config.bootstrap;
  const existing = await findUserByEmail(ctx.db, email);
  if (existing) return { userId: existing.id, created: false };
  try {
    // The verbs read `ctx.db.db`: the query builder wrapped as a handle.
    const user = await createUserAccount({ db: ctx, now: ctx.now }, { email, password });
    return { userId: user.id, created: true };
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const raced = await findUserByEmail(ctx.db, email);
    if (!raced) throw error;
    return { userId: raced.id, created: false };
  }
}
