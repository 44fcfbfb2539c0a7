import type { HealthStatus, Sealed, WebhookSignatureType } from "@hookflow/domain";
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  sql,
  text,
  timestamp,
  uniqueIndex,
} from "../drizzle.js";
import { organizations, users } from "./identity.js";

export interface PayloadFilterRow {
  field: string;
  operator: string;
  value?: string | undefined;
}

export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").references(() => organizations.id, {
      onDelete: "cascade",
    }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    targetUrl: text("target_url").notNull().default(""),
    isActive: boolean("is_active").notNull().default(true),
    /** Sealed (AES-256-GCM, see `KeyRing` in @hookflow/domain), like both secrets below. */
    ingressToken: text("ingress_token").$type<Sealed>().notNull(),
    /**
     * Keyed hash of the ingress token (HMAC under a key derived from the encryption key): the
     * ingress finds a webhook by it without decrypting anything. Null only in a row written
     * before encryption at rest, until the migrate step seals it.
     */
    tokenHash: text("token_hash"),
    signingSecret: text("signing_secret").$type<Sealed>().notNull(),
    healthStatus: text("health_status").$type<HealthStatus>().notNull().default("healthy"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    maxRetries: integer("max_retries").notNull().default(3),
    retryDelaySeconds: integer("retry_delay_seconds").notNull().default(60),
    backoffMultiplier: doublePrecision("backoff_multiplier").notNull().default(2),
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull().default(0),
    rateLimitPerSecond: integer("rate_limit_per_second").notNull().default(0),
    incomingSignatureType: text("incoming_signature_type")
      .$type<WebhookSignatureType>()
      .notNull()
      .default("none"),
    incomingSignatureSecret: text("incoming_signature_secret").$type<Sealed>(),
    payloadFilters: jsonb("payload_filters").$type<PayloadFilterRow[]>().notNull().default([]),
    degradedAfter: integer("degraded_after").notNull().default(2),
    downAfter: integer("down_after").notNull().default(4),
    circuitBreakerEnabled: boolean("circuit_breaker_enabled").notNull().default(false),
    circuitBreakerThreshold: integer("circuit_breaker_threshold").notNull().default(5),
    circuitBreakerCooldownSeconds: integer("circuit_breaker_cooldown_seconds")
      .notNull()
      .default(60),
    /** Last known breaker state (`closed`, `open`, `half_open`); Redis holds the live state. */
    circuitState: text("circuit_state").notNull().default("closed"),
    priority: integer("priority").notNull().default(3),
    fallbackUrl: text("fallback_url"),
    chaosEnabled: boolean("chaos_enabled").notNull().default(false),
    chaosFailureRate: doublePrecision("chaos_failure_rate").notNull().default(0),
    chaosLatencyMs: integer("chaos_latency_ms").notNull().default(0),
    acceptsInternalCalls: boolean("accepts_internal_calls").notNull().default(false),
    responseMode: text("response_mode").notNull().default("none"),
    dedupEnabled: boolean("dedup_enabled").notNull().default(false),
    dedupWindowSeconds: integer("dedup_window_seconds").notNull().default(3600),
    chainWebhookIds: text("chain_webhook_ids").array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("webhooks_token_hash_key").on(t.tokenHash),
    index("webhooks_owner_idx").on(t.ownerId, t.createdAt),
    index("webhooks_org_idx").on(t.organizationId, t.createdAt),
  ],
);
