import { createHmac, hkdfSync, randomBytes } from "node:crypto";
import {
  createKeyRing,
  encryptionKeyId,
  isSealed,
  type Sealed,
  SealedValueError,
  sealedKeyId,
} from "./key-ring.js";

const KEY = Buffer.from("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "hex");
const CONTEXT = "webhooks.signing_secret:wh_1";
/** Sealed once by this module and pinned: a format change must not strand stored values. */
const PINNED = "enc:v1:ad899014:zJJRYJR9puE493ZZ:D9cQOaGhYAbHiL5yUVNIAnelaEFF4c4vgH2m" as Sealed;

function reasonOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    if (error instanceof SealedValueError) return error.reason;
    throw error;
  }
  return "opened";
}

describe("key ring", () => {
  it("opens a pinned envelope sealed under a fixed key", () => {
    expect(encryptionKeyId(KEY)).toBe("ad899014");
    expect(createKeyRing({ current: KEY }).open(PINNED, CONTEXT)).toBe("whsec_hello");
  });

  it("seals to enc:v1:<keyId>:<iv>:<data>, with a fresh IV every time", () => {
    const ring = createKeyRing({ current: KEY });
    const a = ring.seal("whsec_hello", CONTEXT);
    const b = ring.seal("whsec_hello", CONTEXT);
    expect(a).toMatch(/^enc:v1:ad899014:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("hello");
    expect([ring.open(a, CONTEXT), ring.open(b, CONTEXT)]).toEqual(["whsec_hello", "whsec_hello"]);
    expect(isSealed(a)).toBe(true);
    expect(sealedKeyId(a)).toBe("ad899014");
    expect(isSealed("whsec_hello")).toBe(false);
    expect(sealedKeyId("whsec_hello")).toBeNull();
  });

  it("round-trips the empty string and non-ASCII text", () => {
    const ring = createKeyRing({ current: KEY });
    for (const text of ["", "sécret ✓ \u0000 end", "x".repeat(5000)]) {
      expect(ring.open(ring.seal(text, CONTEXT), CONTEXT)).toBe(text);
    }
  });

  it("refuses a value under another context, so a ciphertext cannot move to another row", () => {
    const ring = createKeyRing({ current: KEY });
    const sealed = ring.seal("whsec_hello", CONTEXT);
    expect(reasonOf(() => ring.open(sealed, "webhooks.signing_secret:wh_2"))).toBe("tampered");
    expect(reasonOf(() => ring.open(sealed, "webhooks.ingress_token:wh_1"))).toBe("tampered");
  });

  it("refuses a tampered ciphertext, a malformed envelope and an unknown key id", () => {
    const ring = createKeyRing({ current: KEY });
    const sealed = ring.seal("whsec_hello", CONTEXT);
    const last = sealed.at(-1) === "A" ? "B" : "A";
    expect(reasonOf(() => ring.open(`${sealed.slice(0, -1)}${last}` as Sealed, CONTEXT))).toBe(
      "tampered",
    );
    for (const bad of ["enc:v1:ad899014", "enc:v1:ad899014:x:y", "plain", "enc:v1:zz:a:b"]) {
      expect(reasonOf(() => ring.open(bad as Sealed, CONTEXT))).toBe("malformed");
    }
    const other = createKeyRing({ current: randomBytes(32) });
    expect(reasonOf(() => other.open(sealed, CONTEXT))).toBe("unknown_key");
  });

  it("rotates: the new key seals, previous keys still open what they sealed", () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = createKeyRing({ current: oldKey });
    const sealedBefore = before.seal("old value", CONTEXT);
    const after = createKeyRing({ current: newKey, previous: [oldKey] });
    expect(after.currentKeyId).toBe(encryptionKeyId(newKey));
    expect(after.keyIds).toEqual([encryptionKeyId(newKey), encryptionKeyId(oldKey)]);
    expect(after.open(sealedBefore, CONTEXT)).toBe("old value");
    expect(sealedKeyId(after.seal("new value", CONTEXT))).toBe(encryptionKeyId(newKey));
    expect(reasonOf(() => createKeyRing({ current: newKey }).open(sealedBefore, CONTEXT))).toBe(
      "unknown_key",
    );
  });

  it("hashes a credential with HMAC-SHA256 under an HKDF-derived key, per ring key", () => {
    const lookupKey = Buffer.from(hkdfSync("sha256", KEY, "", "hookflow-credential-lookup-v1", 32));
    const expected = createHmac("sha256", lookupKey).update("tok_example").digest("base64url");
    expect(expected).toBe("izN5OGGaf6T4wQg8TKY6LQkwEYR7ytMLGf6ItY3gDA8");
    const ring = createKeyRing({ current: KEY });
    expect(ring.lookupHash("tok_example")).toBe(expected);
    const rotated = createKeyRing({ current: randomBytes(32), previous: [KEY] });
    expect(rotated.lookupHashes("tok_example")).toEqual([
      rotated.lookupHash("tok_example"),
      expected,
    ]);
    expect(rotated.lookupHash("tok_example")).not.toBe(expected);
  });

  it("refuses keys that are not 32 bytes", () => {
    expect(() => createKeyRing({ current: randomBytes(16) })).toThrow(/32 bytes/);
  });
});
