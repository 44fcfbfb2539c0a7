import { createHash, randomBytes } from "node:crypto";
import type { z } from "zod";
import { RawEnv } from "./env-schema.js";
import { type ProxyNetwork, parseTrustedProxies } from "./trusted-proxies.js";

export interface HookflowConfig {
  nodeEnv: RawEnv["NODE_ENV"];
  host: string;
  port: number;
  databaseUrl: string;
  databasePoolSize: number;
  redisUrl: string;
  redisPrefix: string;
  publicBaseUrl: string;
  /** Server secret for stream tokens and signed links. */
  secret: string;
  /**
   * AES-256-GCM keys for credentials at rest: `current` seals, `previous` (a rotation in
   * progress) only open. Shaped for `createKeyRing` of `@hookflow/domain`.
   */
  encryptionKeys: { current: Buffer; previous: Buffer[] };
  delayScale: number;
  bootstrap: { email: string; password: string } | null;
  allowSignup: boolean;
  allowPrivateTargets: boolean;
  sessionTtlSeconds: number;
  maxPayloadBytes: number;
  deliveryTimeoutMs: number;
  workerConcurrency: number;
  ingressRateLimitPerSecond: number;
  /** Events that may descend through forwards from one ingress event (its forwarding budget). */
  graphMaxDescendants: number;
  /** Forwards between an ingress event and its deepest descendant. */
  graphMaxForwardDepth: number;
  /** Requests per minute per API key and per session on the api; 0 = unlimited. */
  apiRateLimitPerMinute: number;
  /** Peers whose `X-Forwarded-For` is believed (empty: none, the TCP peer is the client). */
  trustedProxies: ProxyNetwork[];
  /** Concurrent event streams one stream token may hold open (across stream processes). */
  streamMaxPerToken: number;
  /** Concurrent event streams one process holds open. */
  streamMaxPerProcess: number;
  /** The operator's SMTP server; null keeps mail in the local outbox. */
  smtpUrl: string | null;
  /** From header of the mail Hookflow sends. */
  mailFrom: string;
  /** Recipients one mail may have: more is refused at write time (400) and at send time. */
  mailMaxRecipients: number;
  /** Recipients one owner may mail per sliding hour, across every worker; 0 = no limit. */
  mailRateLimitPerHour: number;
  /** Google's API origins for Sheets and Gmail actions (both one stand-in when configured). */
  google: { sheetsBaseUrl: string; gmailBaseUrl: string; tokenUrl: string };
  logLevel: RawEnv["LOG_LEVEL"];
  /**
   * The Prometheus listener of the process (METRICS_*), apart from the public port; null when
   * `METRICS_PORT=off`. With `token` set, scrapes need `Authorization: Bearer <token>`.
   */
  metrics: { port: number; host: string; token: string | null } | null;
  /**
   * The web console the api serves at `/`: `bundled` is the build of `@hookflow/dashboard` next
   * to the api, `off` serves none, a string is a folder holding a built console.
   */
  dashboardDir: "bundled" | "off" | string;
  /** Things the operator should hear about at boot (generated secrets and the like). */
  warnings: string[];
}

export class ConfigError extends Error {}

function describe(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
}

/** Seed of the fixed key used when neither the key nor the secret is set (development only). */
const DEVELOPMENT_KEY_SEED = "hookflow-development-encryption-key";

function decodeKey(value: string): Buffer {
  return value.length === 64 ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
}

function trustedNetworks(text: string): ProxyNetwork[] {
  const parsed = parseTrustedProxies(text);
  // The schema already refused invalid entries.
  return parsed.ok ? parsed.networks : [];
}

/** The environment through the schema; every problem named in one ConfigError. */
function parseEnv(env: Record<string, string | undefined>): RawEnv {
  const parsed = RawEnv.safeParse(env);
  if (!parsed.success) throw new ConfigError(`Invalid configuration: ${describe(parsed.error)}`);
  return parsed.data;
}

/** Settings that are optional one by one but required in production or by another setting. */
function checkRequiredSettings(raw: RawEnv, production: boolean): void {
  if (production && !raw.HOOKFLOW_SECRET) {
    throw new ConfigError("Invalid configuration: HOOKFLOW_SECRET is required in production");
  }
  if (production && !raw.HOOKFLOW_ENCRYPTION_KEY) {
    throw new ConfigError(
      "Invalid configuration: HOOKFLOW_ENCRYPTION_KEY is required in production",
    );
  }
  if (raw.HOOKFLOW_BOOTSTRAP_EMAIL && !raw.HOOKFLOW_BOOTSTRAP_PASSWORD) {
    throw new ConfigError(
      "Invalid configuration: HOOKFLOW_BOOTSTRAP_PASSWORD is required with HOOKFLOW_BOOTSTRAP_EMAIL",
    );
  }
}

/** HOOKFLOW_SECRET, or one generated for this process (with a warning). */
function resolveSecret(configured: string | undefined, warnings: string[]): string {
  if (configured) return configured;
  const generated = randomBytes(32).toString("base64url");
  warnings.push(
    "HOOKFLOW_SECRET is unset: generated one for this process. Stream tokens will not survive a restart or work across processes; set it outside local development.",
  );
  return generated;
}

/** The key that seals credentials at rest: HOOKFLOW_ENCRYPTION_KEY, else a development key. */
function resolveEncryptionKey(raw: RawEnv, secret: string, warnings: string[]): Buffer {
  if (raw.HOOKFLOW_ENCRYPTION_KEY) return decodeKey(raw.HOOKFLOW_ENCRYPTION_KEY);
  if (raw.HOOKFLOW_SECRET) {
    // Development only: derived from the secret, so it is as stable as the secret is.
    warnings.push(
      "HOOKFLOW_ENCRYPTION_KEY is unset: derived a development key from HOOKFLOW_SECRET.",
    );
    return createHash("sha256").update(`hookflow-encryption:${secret}`).digest();
  }
  // A generated secret would make stored credentials unreadable after a restart.
  warnings.push(
    "HOOKFLOW_ENCRYPTION_KEY and HOOKFLOW_SECRET are unset: credentials at rest are sealed with a fixed, publicly known development key. Set HOOKFLOW_ENCRYPTION_KEY outside local development.",
  );
  return createHash("sha256").update(DEVELOPMENT_KEY_SEED).digest();
}

/** ALLOW_PRIVATE_TARGETS when set; unset, private targets are allowed outside production. */
function allowPrivateTargets(raw: RawEnv, production: boolean): boolean {
  return raw.ALLOW_PRIVATE_TARGETS === undefined || raw.ALLOW_PRIVATE_TARGETS === ""
    ? !production
    : raw.ALLOW_PRIVATE_TARGETS === "true" || raw.ALLOW_PRIVATE_TARGETS === "1";
}

function googleOrigins(raw: RawEnv): HookflowConfig["google"] {
  return {
    sheetsBaseUrl: (raw.GOOGLE_API_BASE_URL ?? "https://sheets.googleapis.com").replace(/\/+$/, ""),
    gmailBaseUrl: (raw.GOOGLE_API_BASE_URL ?? "https://gmail.googleapis.com").replace(/\/+$/, ""),
    tokenUrl: raw.GOOGLE_OAUTH_TOKEN_URL,
  };
}

function metricsListener(raw: RawEnv): HookflowConfig["metrics"] {
  return raw.METRICS_PORT === "off"
    ? null
    : { port: raw.METRICS_PORT, host: raw.METRICS_HOST, token: raw.METRICS_TOKEN ?? null };
}

/**
 * Parses the environment once, at boot, and fails fast with every problem named. Pure: the
 * caller passes the environment (apps pass `process.env` from their `env.ts`).
 */
export function loadConfig(env: Record<string, string | undefined>): HookflowConfig {
  const raw = parseEnv(env);
  const production = raw.NODE_ENV === "production";
  checkRequiredSettings(raw, production);
  const warnings: string[] = [];
  const secret = resolveSecret(raw.HOOKFLOW_SECRET, warnings);
  const encryptionKey = resolveEncryptionKey(raw, secret, warnings);
  const publicBaseUrl = (raw.PUBLIC_BASE_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, "");

  return {
    nodeEnv: raw.NODE_ENV,
    host: raw.HOST,
    port: raw.PORT,
    databaseUrl: raw.DATABASE_URL,
    databasePoolSize: raw.DATABASE_POOL_SIZE,
    redisUrl: raw.REDIS_URL,
    redisPrefix: raw.HOOKFLOW_REDIS_PREFIX,
    publicBaseUrl,
    secret,
    encryptionKeys: {
      current: encryptionKey,
      previous: (raw.HOOKFLOW_ENCRYPTION_KEYS_PREVIOUS ?? []).map(decodeKey),
    },
    delayScale: raw.HOOKFLOW_DELAY_SCALE,
    bootstrap: raw.HOOKFLOW_BOOTSTRAP_EMAIL
      ? { email: raw.HOOKFLOW_BOOTSTRAP_EMAIL, password: raw.HOOKFLOW_BOOTSTRAP_PASSWORD ?? "" }
      : null,
    allowSignup: raw.ALLOW_SIGNUP,
    allowPrivateTargets: allowPrivateTargets(raw, production),
    sessionTtlSeconds: raw.SESSION_TTL_SECONDS,
    maxPayloadBytes: raw.MAX_PAYLOAD_BYTES,
    deliveryTimeoutMs: raw.DELIVERY_TIMEOUT_MS,
    workerConcurrency: raw.WORKER_CONCURRENCY,
    ingressRateLimitPerSecond: raw.INGRESS_RATE_LIMIT_PER_SECOND,
    graphMaxDescendants: raw.GRAPH_MAX_DESCENDANTS,
    graphMaxForwardDepth: raw.GRAPH_MAX_FORWARD_DEPTH,
    apiRateLimitPerMinute: raw.API_RATE_LIMIT_PER_MINUTE,
    trustedProxies: trustedNetworks(raw.TRUSTED_PROXIES ?? ""),
    streamMaxPerToken: raw.STREAM_MAX_PER_TOKEN,
    streamMaxPerProcess: raw.STREAM_MAX_PER_PROCESS,
    smtpUrl: raw.SMTP_URL ?? null,
    mailFrom: raw.MAIL_FROM ?? `Hookflow <hookflow@${new URL(publicBaseUrl).hostname}>`,
    mailMaxRecipients: raw.MAIL_MAX_RECIPIENTS,
    mailRateLimitPerHour: raw.MAIL_RATE_LIMIT_PER_HOUR,
    google: googleOrigins(raw),
    logLevel: raw.LOG_LEVEL,
    metrics: metricsListener(raw),
    dashboardDir: raw.DASHBOARD_DIR ?? "bundled",
    warnings,
  };
}
