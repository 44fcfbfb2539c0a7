import { z } from "zod";
import { parseTrustedProxies } from "./trusted-proxies.js";

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", ""])
    .optional()
    .transform((value) =>
      value === undefined || value === "" ? fallback : ["true", "1", "yes"].includes(value),
    );

/** An empty value (`SMTP_URL=` in a compose file) means unset. */
const unsetWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema);

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

/** A 32-byte key as 64 hex characters or standard base64. */
const KEY_PATTERN = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/;
const KEY_MESSAGE = "32 bytes as 64 hex characters or base64";

/**
 * Every setting Hookflow reads from the environment. The README's configuration table is the
 * user-facing copy of this schema; keep them together.
 */
export const RawEnv = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  HOST: z.string().default("0.0.0.0"),
  PORT: int(3000, 0),
  DATABASE_URL: z.string().url().default("postgres://postgres@127.0.0.1:5432/hookflow"),
  DATABASE_POOL_SIZE: int(10, 1),
  REDIS_URL: z.string().url().default("redis://127.0.0.1:6379"),
  HOOKFLOW_REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and - only")
    .default("hookflow"),
  PUBLIC_BASE_URL: z.string().url().optional(),
  HOOKFLOW_SECRET: z.string().min(32, "at least 32 characters").optional(),
  HOOKFLOW_ENCRYPTION_KEY: z.string().regex(KEY_PATTERN, KEY_MESSAGE).optional(),
  /** Comma-separated: keys that still open stored values during a rotation, never used to seal. */
  HOOKFLOW_ENCRYPTION_KEYS_PREVIOUS: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((key) => key.trim())
        .filter((key) => key.length > 0),
    )
    .pipe(z.array(z.string().regex(KEY_PATTERN, `each key ${KEY_MESSAGE}`)))
    .optional(),
  HOOKFLOW_DELAY_SCALE: z.coerce.number().positive().max(1000).default(1),
  HOOKFLOW_BOOTSTRAP_EMAIL: z.string().email().optional(),
  HOOKFLOW_BOOTSTRAP_PASSWORD: z.string().min(8).optional(),
  ALLOW_SIGNUP: bool(true),
  ALLOW_PRIVATE_TARGETS: z.enum(["true", "false", "1", "0", ""]).optional(),
  SESSION_TTL_SECONDS: int(7 * 24 * 3600, 60),
  MAX_PAYLOAD_BYTES: int(1024 * 1024, 1),
  DELIVERY_TIMEOUT_MS: int(10_000, 100),
  WORKER_CONCURRENCY: int(200, 1),
  INGRESS_RATE_LIMIT_PER_SECOND: int(0, 0),
  GRAPH_MAX_DESCENDANTS: z.coerce.number().int().min(0).max(1_000_000).default(100),
  GRAPH_MAX_FORWARD_DEPTH: z.coerce.number().int().min(0).max(100).default(5),
  API_RATE_LIMIT_PER_MINUTE: int(600, 0),
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      const parsed = parseTrustedProxies(value ?? "");
      if (!parsed.ok) {
        ctx.addIssue({
          code: "custom",
          message: `not an address, CIDR or preset (loopback, linklocal, uniquelocal, private): ${parsed.invalid.join(", ")}`,
        });
      }
    }),
  STREAM_MAX_PER_TOKEN: int(5, 1),
  STREAM_MAX_PER_PROCESS: int(10_000, 1),
  SMTP_URL: unsetWhenEmpty(
    z
      .string()
      .url()
      .regex(/^smtps?:\/\//i, "an smtp:// or smtps:// URL")
      .optional(),
  ),
  MAIL_FROM: unsetWhenEmpty(
    z
      .string()
      .trim()
      .max(320)
      .regex(/^[^\r\n@]+@[^\r\n@]+$/, "one address, e.g. Hookflow <hookflow@example.com>")
      .optional(),
  ),
  /** Recipients one mail may have (approval `notifyEmails`; email actions later). */
  MAIL_MAX_RECIPIENTS: z.coerce.number().int().min(1).max(50).default(10),
  /** Recipients one owner (user or organization) may mail per sliding hour; 0 = no limit. */
  MAIL_RATE_LIMIT_PER_HOUR: int(200, 0),
  /**
   * Base URL of Google's REST APIs for Sheets and Gmail actions (a local stand-in in tests);
   * unset: sheets.googleapis.com and gmail.googleapis.com.
   */
  GOOGLE_API_BASE_URL: unsetWhenEmpty(z.url({ protocol: /^https?$/ }).optional()),
  /** Where google_oauth credentials are refreshed. */
  GOOGLE_OAUTH_TOKEN_URL: z
    .url({ protocol: /^https?$/ })
    .default("https://oauth2.googleapis.com/token"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Prometheus metrics listen here, never on PORT; `off` serves none, `0` any free port. */
  METRICS_PORT: z
    .union([z.literal("off"), z.coerce.number().int().min(0).max(65_535)])
    .default(9464),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  METRICS_TOKEN: unsetWhenEmpty(z.string().min(16, "at least 16 characters").optional()),
  /** The built web console the api serves at `/`: unset = the bundled build, `off` = none. */
  DASHBOARD_DIR: unsetWhenEmpty(z.string().min(1).optional()),
});
export type RawEnv = z.infer<typeof RawEnv>;
