import { type Logger, pino } from "pino";

export type { Logger };

export interface CreateLoggerOptions {
  level: string;
  /** Process role, e.g. `api`, `worker`; every line carries it. */
  role: string;
}

/** One JSON logger per process. Secrets in common places are redacted. */
export function createLogger(options: CreateLoggerOptions): Logger {
  return pino({
    level: options.level,
    base: { role: options.role, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        "req.headers.authorization",
        "headers.authorization",
        "password",
        "*.password",
        "signingSecret",
        "*.signingSecret",
      ],
      censor: "[redacted]",
    },
  });
}
