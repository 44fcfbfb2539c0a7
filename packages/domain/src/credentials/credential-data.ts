import { z } from "zod";
import { ValidationError } from "../errors.js";

/**
 * What a stored credential holds, one schema per `type` (docs/decisions.md, Credentials). The
 * data is sealed whole at rest and never returned; `credentialPreview` is all a route shows.
 */
export const CREDENTIAL_TYPES = ["google_oauth", "smtp", "bearer", "basic", "mongodb"] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

const secret = (max = 4096) => z.string().min(1).max(max);

export const GoogleOAuthData = z.object({
  accessToken: secret(),
  refreshToken: secret().optional(),
  clientId: z.string().min(1).max(512).optional(),
  clientSecret: secret(512).optional(),
  /** When the access token runs out (ISO 8601); absent: refreshed before its first use. */
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  scope: z.string().max(2048).optional(),
});
export type GoogleOAuthData = z.infer<typeof GoogleOAuthData>;

export const SmtpData = z.object({
  host: z.string().trim().min(1).max(253),
  port: z.number().int().min(1).max(65_535).default(587),
  secure: z.boolean().default(false),
  username: z.string().max(320).optional(),
  password: secret(1024).optional(),
  from: z.string().trim().max(320).optional(),
});
export type SmtpData = z.infer<typeof SmtpData>;

export const BearerData = z.object({ token: secret() });
export type BearerData = z.infer<typeof BearerData>;

export const BasicData = z.object({
  username: z
    .string()
    .min(1)
    .max(320)
    .regex(/^[^:]*$/, "must not contain a colon"),
  password: secret(1024),
});
export type BasicData = z.infer<typeof BasicData>;

export const MongoData = z.object({
  connectionUri: z
    .string()
    .min(1)
    .max(4096)
    .regex(/^mongodb(\+srv)?:\/\//, "a mongodb:// or mongodb+srv:// URI"),
});
export type MongoData = z.infer<typeof MongoData>;

export const CREDENTIAL_DATA = {
  google_oauth: GoogleOAuthData,
  smtp: SmtpData,
  bearer: BearerData,
  basic: BasicData,
  mongodb: MongoData,
} as const;

export type CredentialData = {
  [T in CredentialType]: { type: T; data: z.infer<(typeof CREDENTIAL_DATA)[T]> };
}[CredentialType];

/** `data` checked against the schema of `type`: 400 naming `data.<field>` otherwise. */
export function parseCredentialData(type: CredentialType, data: unknown): CredentialData {
  const parsed = CREDENTIAL_DATA[type].safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => {
      const path = ["data", ...issue.path.map(String)].join(".");
      return `${path}: ${issue.message}`;
    });
    throw new ValidationError(issues.join("; "));
  }
  return { type, data: parsed.data } as CredentialData;
}

/** The authenticated context a credential's data is sealed under: its column and row. */
export function credentialSealContext(credentialId: string): string {
  return `credentials.data:${credentialId}`;
}

/** A connection URI with its password (and any query string) replaced: `mongodb://u:****@h/db`. */
export function redactConnectionUri(uri: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/)(?:([^:@/]*)(?::[^@/]*)?@)?([^/?]*)(\/[^?]*)?/.exec(uri);
  if (!match) return "mongodb://****";
  const [, scheme, user, hosts, path] = match;
  const auth = user === undefined ? "" : `${user}:****@`;
  return `${scheme}${auth}${hosts}${path ?? ""}`;
}

/**
 * What routes may show of a credential's data: nothing secret. Token types show nothing; SMTP its
 * server and user; basic its user; MongoDB its URI without password or options.
 */
export function credentialPreview(credential: CredentialData): Record<string, unknown> {
  switch (credential.type) {
    case "google_oauth":
      return {
        expiresAt: credential.data.expiresAt ?? null,
        hasRefreshToken: credential.data.refreshToken !== undefined,
        scope: credential.data.scope ?? null,
      };
    case "smtp":
      return {
        host: credential.data.host,
        port: credential.data.port,
        secure: credential.data.secure,
        username: credential.data.username ?? null,
      };
    case "bearer":
      return {};
    case "basic":
      return { username: credential.data.username };
    case "mongodb":
      return { connectionUri: redactConnectionUri(credential.data.connectionUri) };
  }
}
