import { randomToken } from "@hookflow/domain";

/** Every API key starts with it; the api tells keys from session tokens by it. */
export const API_KEY_PREFIX = "hf_live_";

const SESSION_TOKEN_PREFIX = "hfs_";

/** `hfs_` + 43 url-safe characters (about 256 bits). */
export function newSessionToken(): string {
  return `${SESSION_TOKEN_PREFIX}${randomToken(43)}`;
}

/** `hf_live_` + 40 url-safe characters (about 238 bits). */
export function newApiKeyValue(): string {
  return `${API_KEY_PREFIX}${randomToken(40)}`;
}

/** What lists show of a key: the fixed prefix and four characters. */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 4);
}
