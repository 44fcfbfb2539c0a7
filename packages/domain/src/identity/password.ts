import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * scrypt cost parameters of new hashes: OWASP's recommendation (N=2^17, r=8, p=1), 128 MiB of
 * memory and about half a second of one core per hash. Older hashes keep verifying with the
 * parameters they carry and are replaced at the next successful login (`needsRehash`).
 */
export const PASSWORD_SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 64;
/** Twice the memory of new hashes: the most a stored hash may ask for. */
const MAX_TABLE_BYTES = 256 * 1024 * 1024;

/**
 * Node's async scrypt runs on the libuv thread pool, never on the event loop. `maxmem` is what
 * the parameters need (128 * N * r for the table, 128 * r * p for the blocks) plus a margin.
 */
function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  const N = options.N ?? PASSWORD_SCRYPT.N;
  const r = options.r ?? PASSWORD_SCRYPT.r;
  const p = options.p ?? PASSWORD_SCRYPT.p;
  const maxmem = 128 * N * r + 128 * r * p + 4 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$<salt base64>$<key base64>`: the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const { N, r, p } = PASSWORD_SCRYPT;
  const key = await derive(password, salt, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseHash(encoded: string): ParsedHash | null {
  const parts = encoded.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map((part) => (/^\d{1,8}$/.test(part) ? Number(part) : 0));
  // Bounds keep a corrupted row from asking for gigabytes of memory.
  if (!N || !r || !p || N > 2 ** 20 || (N & (N - 1)) !== 0 || r > 32 || p > 16) return null;
  if (128 * N * r > MAX_TABLE_BYTES) return null;
  const salt = Buffer.from(parts[4] ?? "", "base64");
  const key = Buffer.from(parts[5] ?? "", "base64");
  if (salt.length === 0 || key.length !== KEY_BYTES) return null;
  return { N, r, p, salt, key };
}

/** Constant-time check of a password against a stored hash; a malformed hash never matches. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parseHash(encoded);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, { N: parsed.N, r: parsed.r, p: parsed.p });
  return timingSafeEqual(actual, parsed.key);
}

/**
 * True when a stored hash was made with weaker parameters than new hashes get (or is not a
 * hash this module reads), so a successful login should store a fresh one.
 */
export function needsRehash(encoded: string): boolean {
  const parsed = parseHash(encoded);
  if (!parsed) return true;
  const { N, r, p } = PASSWORD_SCRYPT;
  return parsed.N < N || parsed.r < r || parsed.p < p;
}
