import { RateLimitedError } from "@hookflow/domain";
import type { RedisKeys } from "@hookflow/queue";
import type { FixedWindow } from "../fixed-window.js";

/**
 * Accounts one client address may create per hour. Each signup costs a full scrypt hash (128 MiB,
 * half a second of CPU), so anonymous signups are limited like anonymous logins.
 */
export const SIGNUPS_PER_ADDRESS_PER_HOUR = 20;
const WINDOW_MS = 3600_000;

export async function assertSignupAllowed(
  target: { fixedWindow: FixedWindow; keys: RedisKeys },
  address: string,
): Promise<void> {
  const { count, resetMs } = await target.fixedWindow(
    target.keys.rateWindow(`signup:${address}`),
    WINDOW_MS,
  );
  if (count <= SIGNUPS_PER_ADDRESS_PER_HOUR) return;
  throw new RateLimitedError(
    Math.max(1, Math.ceil(resetMs / 1000)),
    "Too many signups from this address; try again later",
  );
}
