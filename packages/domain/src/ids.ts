import { randomBytes, randomFillSync } from "node:crypto";

/** Type prefixes of every id the service hands out (docs/decisions.md, "The api's edge"). */
export const ID_PREFIXES = {
  user: "usr",
  session: "ses",
  organization: "org",
  apiKey: "key",
  webhook: "wh",
  event: "evt",
  attempt: "att",
  canvasSnapshot: "cvs",
  additionalTarget: "tgt",
  credential: "cred",
  actionRun: "actr",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function encodeTime(ms: number): string {
  let out = "";
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD.charAt(rest % 32) + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/**
 * Random bytes for ids, drawn from a 4 KiB buffer refilled from the CSPRNG when used up: one
 * `randomBytes(16)` per id costs about 30 times as much (a native call each), and ids are made on
 * every accepted event and every attempt. The bytes are the same CSPRNG output, used once each;
 * Node's own `crypto.randomUUID` keeps such a cache too.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function encodeRandom(byteCount: number): string {
  if (poolOffset + byteCount > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let out = "";
  for (let i = poolOffset; i < poolOffset + byteCount; i++) {
    out += CROCKFORD.charAt((pool[i] ?? 0) & 31);
  }
  poolOffset += byteCount;
  return out;
}

/**
 * A ULID-shaped id with a type prefix: `evt_01J9Z...`. The time part makes ids sort by creation,
 * which keeps b-tree inserts at the right edge and lets lists page by id.
 */
export function newId(kind: IdKind, now: number = Date.now()): string {
  return newPrefixedId(ID_PREFIXES[kind], now);
}

/** The same id shape with a prefix defined elsewhere (node families carry their own). */
export function newPrefixedId(prefix: string, now: number = Date.now()): string {
  return `${prefix}_${encodeTime(now)}${encodeRandom(16)}`;
}

/** Url-safe random string for tokens (ingress tokens, session tokens, api keys). */
export function randomToken(length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = randomBytes(length * 2);
  let out = "";
  for (const byte of bytes) {
    // 248 = 62 * 4: reject the tail so every character is equally likely.
    if (byte < 248) out += alphabet.charAt(byte % 62);
    if (out.length === length) return out;
  }
  return out + randomToken(length - out.length);
}
