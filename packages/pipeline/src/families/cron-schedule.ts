import { Cron } from "croner";

/**
 * Cron expressions of scheduled workflows (docs/decisions.md, Scheduled workflows): 5 fields
 * (minute precision) or 6 (seconds first), evaluated by croner in an IANA time zone. The API
 * validates with these functions and the job schedulers compute their ticks with them, so what
 * the API accepts is exactly what fires.
 */

export const CRON_EXPRESSION_MAX_LENGTH = 200;

const CRON_OPTIONS = { mode: "5-or-6-parts", paused: true } as const;

/** Whether `timezone` is an IANA zone name this runtime knows (`UTC`, `Europe/Berlin`). */
export function isKnownTimeZone(timezone: string): boolean {
  // Offsets such as "+01:00" are valid Intl zones but not IANA names.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(timezone)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

function fieldCountProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (fields.length === 5 || fields.length === 6) return undefined;
  return `must have 5 fields (minute hour day month weekday) or 6 (seconds first), not ${fields.length}`;
}

/**
 * Why `expression` is not a usable schedule in `timezone`, or undefined when it is: wrong field
 * count, a field croner refuses, or an expression that never fires (30 February).
 */
export function cronProblem(expression: string, timezone: string): string | undefined {
  const count = fieldCountProblem(expression);
  if (count) return count;
  try {
    const cron = new Cron(expression.trim(), { ...CRON_OPTIONS, timezone });
    if (cron.nextRun() === null) return "never fires";
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^CronPattern: /, "");
  }
}

/** The first tick of `expression` in `timezone` strictly after `after`, or null if none. */
export function nextCronRun(expression: string, timezone: string, after: Date): Date | null {
  const cron = new Cron(expression.trim(), { ...CRON_OPTIONS, timezone });
  return cron.nextRun(after);
}
