import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";

declare const sealedBrand: unique symbol;

/**
 * A value encrypted by a key ring: `enc:v1:<keyId>:<iv>:<ciphertext and tag>` (base64url parts).
 * The brand keeps plain text from being stored where a sealed value belongs, and the other way
 * round: only `seal` makes one, only `open` reads one.
 */
export type Sealed = string & { readonly [sealedBrand]: true };

const PREFIX = "enc:v1:";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[0-9a-f]{8}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A sealed value that cannot be opened: unknown key id, malformed, or tampered with. */
export class SealedValueError extends Error {
  readonly reason: "malformed" | "unknown_key" | "tampered";
  constructor(reason: SealedValueError["reason"], message: string) {
    super(message);
    this.name = "SealedValueError";
    this.reason = reason;
  }
}

/**
 * AES-256-GCM at rest with key rotation. One current key seals; every key of the ring (current
 * and previous) opens what it sealed, found by the key id in the envelope. `context` is
 * authenticated data (say `webhooks.signing_secret:wh_01...`): a value only opens under the
 * context it was sealed for, so a ciphertext copied to another row or column is refused.
 */
export interface KeyRing {
  readonly currentKeyId: string;
  readonly keyIds: readonly string[];
  seal: (plaintext: string, context: string) => Sealed;
  open: (value: Sealed, context: string) => string;
  /**
   * Keyed lookup hash of a credential (HMAC-SHA256 under a key derived from the current key),
   * stored instead of the credential so it can be found without decrypting anything.
   */
  lookupHash: (credential: string) => string;
  /** The credential's lookup hash under every key of the ring, current first. */
  lookupHashes: (credential: string) => string[];
}

export interface KeyRingKeys {
  current: Uint8Array;
  /** Keys that still open values and match lookup hashes, never used to seal. */
  previous?: readonly Uint8Array[];
}

/** The id a key is known by in envelopes: 8 hex characters of a hash of the key. */
export function encryptionKeyId(key: Uint8Array): string {
  return createHash("sha256").update("hookflow-key-id\0").update(key).digest("hex").slice(0, 8);
}

/** True when `value` has the envelope form (it may still fail to open). */
export function isSealed(value: string): value is Sealed {
  return value.startsWith(PREFIX);
}

/** The key id named by a sealed value, or null when it is not an envelope. */
export function sealedKeyId(value: string): string | null {
  if (!isSealed(value)) return null;
  const keyId = value.slice(PREFIX.length, PREFIX.length + 8);
  return KEY_ID.test(keyId) ? keyId : null;
}

/** Keys are imported once (KeyObject): importing raw bytes per call costs more than the work. */
interface RingKey {
  id: string;
  cipherKey: KeyObject;
  lookupKey: KeyObject;
}

function ringKey(key: Uint8Array): RingKey {
  if (key.byteLength !== KEY_BYTES) {
    throw new Error(`an encryption key must be ${KEY_BYTES} bytes (got ${key.byteLength})`);
  }
  return {
    id: encryptionKeyId(key),
    cipherKey: createSecretKey(Buffer.from(key)),
    lookupKey: createSecretKey(
      Buffer.from(hkdfSync("sha256", key, "", "hookflow-credential-lookup-v1", 32)),
    ),
  };
}

function parseEnvelope(value: string): { keyId: string; iv: Buffer; data: Buffer } {
  const parts = value.slice(PREFIX.length).split(":");
  const [keyId, iv, data] = parts;
  if (
    !isSealed(value) ||
    parts.length !== 3 ||
    !keyId ||
    !KEY_ID.test(keyId) ||
    !iv ||
    !BASE64URL.test(iv) ||
    !data ||
    !BASE64URL.test(data)
  ) {
    throw new SealedValueError("malformed", "not a sealed value");
  }
  const ivBytes = Buffer.from(iv, "base64url");
  const dataBytes = Buffer.from(data, "base64url");
  if (ivBytes.length !== IV_BYTES || dataBytes.length < TAG_BYTES) {
    throw new SealedValueError("malformed", "not a sealed value");
  }
  return { keyId, iv: ivBytes, data: dataBytes };
}

export function createKeyRing(keys: KeyRingKeys): KeyRing {
  const current = ringKey(keys.current);
  const all = [current];
  for (const key of keys.previous ?? []) {
    const entry = ringKey(key);
    if (!all.some((known) => known.id === entry.id)) all.push(entry);
  }
  const byId = new Map(all.map((entry) => [entry.id, entry]));
  const hashUnder = (entry: RingKey, credential: string) =>
    createHmac("sha256", entry.lookupKey).update(credential, "utf8").digest("base64url");

  return {
    currentKeyId: current.id,
    keyIds: all.map((entry) => entry.id),
    seal: (plaintext, context) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current.cipherKey, iv);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const data = Buffer.concat([
        cipher.update(plaintext, "utf8"),
        cipher.final(),
        cipher.getAuthTag(),
      ]);
      return `${PREFIX}${current.id}:${iv.toString("base64url")}:${data.toString("base64url")}` as Sealed;
    },
    open: (value, context) => {
      const { keyId, iv, data } = parseEnvelope(value);
      const entry = byId.get(keyId);
      if (!entry) {
        throw new SealedValueError(
          "unknown_key",
          `sealed under key ${keyId}, which is not in HOOKFLOW_ENCRYPTION_KEY or HOOKFLOW_ENCRYPTION_KEYS_PREVIOUS`,
        );
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", entry.cipherKey, iv);
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
        return Buffer.concat([
          decipher.update(data.subarray(0, data.length - TAG_BYTES)),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new SealedValueError("tampered", `a value sealed under key ${keyId} did not open`);
      }
    },
    lookupHash: (credential) => hashUnder(current, credential),
    lookupHashes: (credential) => all.map((entry) => hashUnder(entry, credential)),
  };
}
