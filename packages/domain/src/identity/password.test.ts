import { scryptSync } from "node:crypto";
import { hashPassword, verifyPassword } from "./password.js";

describe("hashPassword", () => {
  it("encodes the scrypt parameters, a 16-byte salt and a 64-byte key", async () => {
    const encoded = await hashPassword("correct horse battery");
    const parts = encoded.split("$");
    expect(parts.slice(0, 4)).toEqual(["scrypt", "16384", "8", "1"]);
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
      N: 16384,
      r: 8,
      p: 1,
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
  ])("never matches %s", async (_label, encoded) => {
    await expect(verifyPassword("anything", encoded)).resolves.toBe(false);
  });
});
