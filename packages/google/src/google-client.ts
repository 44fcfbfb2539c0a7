import type { GoogleOAuthData } from "@hookflow/domain";
import { type GoogleRequest, type GoogleResponse, sendGoogleRequest } from "./google-http.js";

/** Where a client finds and keeps a credential's tokens (sealed storage, owner checks). */
export interface GoogleCredentialStore {
  load: (
    credentialId: string,
  ) => Promise<{ ok: true; data: GoogleOAuthData; version: string } | { ok: false; error: string }>;
  /** Stores refreshed tokens only if the credential is still at `version` (else keeps the other write). */
  save: (credentialId: string, version: string, data: GoogleOAuthData) => Promise<void>;
}

export interface GoogleClientOptions {
  tokenUrl: string;
  timeoutMs: number;
  now: () => Date;
}

export type GoogleCallResult =
  | ({ ok: true } & GoogleResponse)
  /** `permanent`: no retry can help (the credential or the request itself is wrong). */
  | { ok: false; status: number; error: string; text: string; permanent?: true };

/** A token this close to its expiry is refreshed before use. */
export const REFRESH_MARGIN_MS = 60_000;

function expiresSoon(data: GoogleOAuthData, nowMs: number): boolean {
  if (data.expiresAt === undefined) return false;
  return Date.parse(data.expiresAt) - nowMs < REFRESH_MARGIN_MS;
}

/**
 * Calls Google's REST APIs with a `google_oauth` credential (docs/decisions.md, Credentials):
 * refreshes the access token when it expires within a minute, or once when Google answers 401,
 * and stores the new token through the store. Errors never carry a token.
 */
export function createGoogleClient(store: GoogleCredentialStore, options: GoogleClientOptions) {
  async function refresh(
    data: GoogleOAuthData,
  ): Promise<{ ok: true; data: GoogleOAuthData } | { ok: false; status: number; error: string }> {
    if (!data.refreshToken || !data.clientId || !data.clientSecret) {
      return {
        ok: false,
        status: 401,
        error: "the access token expired and the credential holds no refresh token and client",
      };
    }
    const answer = await sendGoogleRequest(
      {
        method: "POST",
        url: options.tokenUrl,
        form: {
          grant_type: "refresh_token",
          refresh_token: data.refreshToken,
          client_id: data.clientId,
          client_secret: data.clientSecret,
        },
      },
      {},
      options.timeoutMs,
    );
    const body = answer.json as {
      access_token?: unknown;
      expires_in?: unknown;
      scope?: unknown;
    } | null;
    if (answer.status !== 200 || typeof body?.access_token !== "string") {
      return {
        ok: false,
        status: answer.status,
        error: `token refresh failed (HTTP ${answer.status})`,
      };
    }
    const expiresIn = typeof body.expires_in === "number" ? body.expires_in : 3600;
    return {
      ok: true,
      data: {
        ...data,
        accessToken: body.access_token,
        expiresAt: new Date(options.now().getTime() + expiresIn * 1000).toISOString(),
        ...(typeof body.scope === "string" ? { scope: body.scope } : {}),
      },
    };
  }

  /** One API call with the credential's token, refreshed as needed. */
  async function call(credentialId: string, req: GoogleRequest): Promise<GoogleCallResult> {
    const loaded = await store.load(credentialId);
    if (!loaded.ok) return { ok: false, status: 0, error: loaded.error, text: "", permanent: true };
    let { data } = loaded;
    let refreshed = false;
    const renew = async () => {
      const next = await refresh(data);
      if (!next.ok) return next;
      data = next.data;
      refreshed = true;
      await store.save(credentialId, loaded.version, data);
      return next;
    };
    if (expiresSoon(data, options.now().getTime())) {
      const renewed = await renew();
      if (!renewed.ok) return { ok: false, status: renewed.status, error: renewed.error, text: "" };
    }
    const send = () =>
      sendGoogleRequest(req, { authorization: `Bearer ${data.accessToken}` }, options.timeoutMs);
    let answer = await send();
    if (answer.status === 401 && !refreshed && data.refreshToken) {
      const renewed = await renew();
      if (!renewed.ok) return { ok: false, status: renewed.status, error: renewed.error, text: "" };
      answer = await send();
    }
    if (answer.status >= 200 && answer.status < 300) return { ok: true, ...answer };
    return {
      ok: false,
      status: answer.status,
      error: answer.error ?? googleError(answer),
      text: answer.text,
    };
  }

  return { call };
}
export type GoogleClient = ReturnType<typeof createGoogleClient>;

/** Google's error message (`{error: {message}}`), else the status. */
function googleError(answer: GoogleResponse): string {
  const message = (answer.json as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === "string"
    ? `HTTP ${answer.status}: ${message.slice(0, 500)}`
    : `HTTP ${answer.status}`;
}
