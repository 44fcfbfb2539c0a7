import type { Redis } from "ioredis";

/** Whether a mail fits its owner's hourly budget; when not, how long until it would. */
export type MailQuotaResult = { ok: true } | { ok: false; retryAfterMs: number };

export interface MailQuota {
  /** Recipients one owner may mail per sliding hour. */
  readonly perHour: number;
  /** Charges `count` recipients to the owner if they fit in its last hour; else charges nothing. */
  take: (input: { owner: string; mailId: string; count: number }) => Promise<MailQuotaResult>;
}

export const MAIL_QUOTA_WINDOW_MS = 3_600_000;

/**
 * A sliding hour per owner on a Redis sorted set shared by every worker: one entry per mail,
 * member `<recipients>:<mailId>`, scored by Redis's own clock (workers' clocks may differ).
 * Returns 0 when the mail fits (and charges it), else the ms until enough of the oldest mails
 * leave the window (the whole window when the mail alone is over the budget).
 *
 * KEYS: 1 = the owner's window. ARGV: 1 = budget, 2 = window ms, 3 = recipients, 4 = mail id.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local budget = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local count = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local used = 0
for i = 1, #entries, 2 do used = used + tonumber(string.match(entries[i], '^(%d+):')) end
if used + count <= budget then
  redis.call('ZADD', KEYS[1], now, count .. ':' .. ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window + 1000)
  return 0
end
local freed = 0
for i = 1, #entries, 2 do
  freed = freed + tonumber(string.match(entries[i], '^(%d+):'))
  if used - freed + count <= budget then
    return math.max(1, tonumber(entries[i + 1]) + window - now)
  end
end
return window
`;

/**
 * The per-owner mail budget (`MAIL_RATE_LIMIT_PER_HOUR`) on Redis, so every worker draws on the
 * same budget. Null when the budget is 0 (no limit). Throws when Redis fails: the mailer then
 * records the mail as failed (sent later, not sent unchecked).
 */
export function createRedisMailQuota(options: {
  redis: Redis;
  /** The owner's key, e.g. `<prefix>:rate:mail:<owner>`. */
  keyOf: (owner: string) => string;
  perHour: number;
}): MailQuota | null {
  const { redis, keyOf, perHour } = options;
  if (perHour <= 0) return null;
  return {
    perHour,
    take: async ({ owner, mailId, count }) => {
      const args = [perHour, MAIL_QUOTA_WINDOW_MS, count, mailId];
      const wait = Number(await redis.eval(TAKE, 1, keyOf(owner), ...args));
      return wait === 0 ? { ok: true } : { ok: false, retryAfterMs: wait };
    },
  };
}
