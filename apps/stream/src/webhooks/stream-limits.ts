import { RateLimitedError, UnavailableError } from "@hookflow/domain";

/** Webhook streams one user may hold open at once (per stream process). */
const WEBHOOK_STREAMS_PER_USER = 5;
/** Webhook streams one stream process holds open at once. */
const WEBHOOK_STREAMS_PER_PROCESS = 1000;

export interface WebhookStreamLimits {
  /** Takes a place for `userId` or throws (429 per user, 503 per process); returns its release. */
  acquire: (userId: string) => () => void;
  count: () => number;
}

export function createWebhookStreamLimits(
  limits: { perUser: number; perProcess: number } = {
    perUser: WEBHOOK_STREAMS_PER_USER,
    perProcess: WEBHOOK_STREAMS_PER_PROCESS,
  },
): WebhookStreamLimits {
  const perUser = new Map<string, number>();
  let total = 0;
  return {
    acquire: (userId) => {
      if (total >= limits.perProcess) {
        throw new UnavailableError("Too many open webhook streams on this server; try again later");
      }
      const held = perUser.get(userId) ?? 0;
      if (held >= limits.perUser) {
        throw new RateLimitedError(
          5,
          `At most ${limits.perUser} webhook streams may be open at once per user`,
        );
      }
      perUser.set(userId, held + 1);
      total++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        const left = (perUser.get(userId) ?? 1) - 1;
        if (left > 0) perUser.set(userId, left);
        else perUser.delete(userId);
      };
    },
    count: () => total,
  };
}
