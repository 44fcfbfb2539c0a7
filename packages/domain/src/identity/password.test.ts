import { scryptSync } from "node:crypto";
import { hashPassword, needsRehash, verifyPassword } from "./password.js";

describe("hashPassword", () => {
  it("encodes OWASP's scrypt parameters (N=2^17, r=8, p=1), a 16-byte salt and a 64-byte key", async () => {
    const encoded = await hashPassword("correct horse battery");
    const parts = encoded.split("$");
    expect(parts.slice(0, 4)).toEqual(["scrypt", "131072", "8", "1"]);
    expect(Buffer.from(parts[4] ?? "", "base64")).toHaveLength(16);
    expect(Buffer.from(parts[5] ?? "", "base64")).toHaveLength(64);
  });

  it("salts every hash, so one password gives two different hashes", async () => {
    const a = await hashPassword("same password");
    const b = await hashPassword("same password");
    expect(a).not.toEqual(b);
  });

  it("derives the key with scrypt over the given salt", async () => {
    const encoded = await hashPassword("vector password");
    const [, , , , salt, key] = encoded.split("$");
    const expected = scryptSync("vector password", Buffer.from(salt ?? "", "base64"), 64, {
      N: 2 ** 17,
      r: 8,
      p: 1,
      maxmem: 256 * 1024 * 1024,
    });
    expect(key).toEqual(expected.toString("base64"));
  });
});

describe("verifyPassword", () => {
  it("accepts the right password and rejects a wrong one", async () => {
    const encoded = await hashPassword("s3cret-passw0rd");
    await expect(verifyPassword("s3cret-passw0rd", encoded)).resolves.toBe(true);
    await expect(verifyPassword("s3cret-passw0rd ", encoded)).resolves.toBe(false);
    await expect(verifyPassword("", encoded)).resolves.toBe(false);
  });

  it("verifies a hash made elsewhere with other cost parameters", async () => {
    const salt = Buffer.from("0123456789abcdef");
    const key = scryptSync("legacy password", salt, 64, { N: 1024, r: 8, p: 1 });
    const encoded = `scrypt$1024$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
    await expect(verifyPassword("legacy password", encoded)).resolves.toBe(true);
    await expect(verifyPassword("other password", encoded)).resolves.toBe(false);
  });

  it.each([
    ["a placeholder", "unusable"],
    ["an unknown algorithm", "bcrypt$10$8$1$c2FsdA==$a2V5"],
    ["a cost that is not a power of two", "scrypt$1000$8$1$c2FsdA==$a2V5"],
    ["an absurd cost", "scrypt$1073741824$8$1$c2FsdA==$a2V5"],
    ["a truncated key", "scrypt$16384$8$1$c2FsdA==$a2V5"],
    [
      "a cost that would need a gigabyte",
      `scrypt$1048576$8$1$c2FsdA==$${Buffer.alloc(64).toString("base64")}`,
    ],
  ])("never matches %s", async (_label, encoded) => {
    await expect(verifyPassword("anything", encoded)).resolves.toBe(false);
  });
});

describe("needsRehash", () => {
  const key = Buffer.alloc(64).toString("base64");
  it.each([
    ["the old default N=2^14", `scrypt$16384$8$1$c2FsdA==$${key}`, true],
    ["a smaller block size", `scrypt$131072$4$1$c2FsdA==$${key}`, true],
    ["the current parameters", `scrypt$131072$8$1$c2FsdA==$${key}`, false],
    ["stronger parameters", `scrypt$131072$8$2$c2FsdA==$${key}`, false],
    ["a placeholder", "unusable", true],
  ])("answers for %s", (_label, encoded, expected) => {
    expect(needsRehash(encoded)).toBe(expected);
  });

  it("is false for a fresh hash", async () => {
    expect(needsRehash(await hashPassword("fresh password"))).toBe(false);
  });
});
