import { pino } from "pino";

/** `/api/in/<token>`: an ingress token is a credential wherever a path or URL shows it. */
const INGRESS_PATH = /\/api\/in\/[^/?#\s"'\\]+/g;
/** `?token=` / `&token=`: stream tokens (and any other token in a query string). */
const TOKEN_QUERY = /([?&](?:token|streamToken)=)[^&#\s"'\\]+/g;
/** Drizzle's failed-query message ends with the statement's parameters: request data. */
const QUERY_PARAMS = /\nparams: [\s\S]*$/;

/**
 * Text as it may be logged: ingress tokens in paths and URLs, tokens in query strings and the
 * parameters of a failed query are replaced. The request logger and the error handler log paths
 * through this, and every logged error's message and stack too.
 */
export function maskCredentials(text: string): string {
  return text
    .replace(INGRESS_PATH, "/api/in/:token")
    .replace(TOKEN_QUERY, "$1[redacted]")
    .replace(QUERY_PARAMS, "\nparams: [redacted]");
}

/** Fields of a serialized error that hold request data (drizzle and postgres.js errors). */
const DATA_FIELDS = new Set(["params", "parameters", "args", "query"]);

type Serialized = Record<string, unknown>;

function maskSerialized(value: Serialized, depth: number): Serialized {
  const out: Serialized = {};
  for (const [key, field] of Object.entries(value)) {
    if (DATA_FIELDS.has(key)) {
      out[key] = key === "query" && typeof field === "string" ? field : "[redacted]";
    } else if (typeof field === "string") {
      out[key] = maskCredentials(field);
    } else if (field && typeof field === "object" && depth < 5) {
      out[key] = maskSerialized(field as Serialized, depth + 1);
    } else {
      out[key] = field;
    }
  }
  return out;
}

/**
 * pino serializer for `err` and `cause`: the standard error serializer (type, message, stack,
 * causes), then every string masked and query parameters dropped.
 */
export function serializeLoggedError(value: unknown): unknown {
  if (!(value instanceof Error)) {
    return typeof value === "string" ? maskCredentials(value) : value;
  }
  return maskSerialized(pino.stdSerializers.errWithCause(value) as Serialized, 0);
}
