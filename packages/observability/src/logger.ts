import { type DestinationStream, type Logger, pino } from "pino";
import { serializeLoggedError } from "./mask-credentials.js";

export type { Logger };

export interface CreateLoggerOptions {
  level: string;
  /** Process role, e.g. `api`, `worker`; every line carries it. */
  role: string;
  /** Where lines go; stdout by default (tests capture them). */
  destination?: DestinationStream;
}

/**
 * One JSON logger per process. Secrets in common places are redacted; logged errors (`err`,
 * `cause`) have credentials in paths and query strings masked and query parameters dropped.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const settings = {
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
    serializers: { err: serializeLoggedError, cause: serializeLoggedError },
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
