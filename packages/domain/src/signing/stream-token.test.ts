import { createHmac } from "node:crypto";
import { createStreamToken, STREAM_TOKEN_TTL_MS, verifyStreamToken } from "./stream-token.js";

const SECRET = "server-secret";
const EVENT = "evt_01ABC";
const NOW_MS = 1_700_000_000_000;
const EXPIRES = NOW_MS + STREAM_TOKEN_TTL_MS;

describe("createStreamToken", () => {
  it("matches a fixed vector", () => {
    expect(createStreamToken(SECRET, EVENT, EXPIRES)).toBe(
      "ZXZ0XzAxQUJDLjE3MDAwMDAxMjAwMDA.M6AzzSFCGsN3bel1tZpgtgNKckWAIWmnB1_ld75ApII",
    );
  });

  it("lasts 120 seconds by constant", () => {
    expect(STREAM_TOKEN_TTL_MS).toBe(120_000);
  });
});

describe("verifyStreamToken", () => {
  const token = createStreamToken(SECRET, EVENT, EXPIRES);

  it("accepts a token for its event until it expires", () => {
    expect(verifyStreamToken(SECRET, token, EVENT, NOW_MS)).toEqual({ ok: true });
    expect(verifyStreamToken(SECRET, token, EVENT, EXPIRES)).toEqual({ ok: true });
  });

  it("rejects a token after its expiry", () => {
    expect(verifyStreamToken(SECRET, token, EVENT, EXPIRES + 1)).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("rejects a token issued for another event", () => {
    expect(verifyStreamToken(SECRET, token, "evt_OTHER", NOW_MS)).toEqual({
      ok: false,
      reason: "wrong_event",
    });
  });

  it("rejects a token signed with another secret", () => {
    expect(verifyStreamToken("other-secret", token, EVENT, NOW_MS)).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });

  it("rejects a token whose claims were changed to extend its life", () => {
    const [, signature] = token.split(".");
    const forged = `${Buffer.from(`${EVENT}.${EXPIRES + 3_600_000}`).toString("base64url")}.${signature}`;
    expect(verifyStreamToken(SECRET, forged, EVENT, NOW_MS)).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });

  it.each<[string | undefined, string]>([
    ["", "empty"],
    ["abc", "no dot"],
    ["a.b.c", "three parts"],
    ["a+b.c/d", "not base64url"],
    [undefined, "absent"],
  ])("rejects a malformed token (%j, %s)", (value) => {
    expect(verifyStreamToken(SECRET, value, EVENT, NOW_MS)).toEqual({
      ok: false,
      reason: "malformed",
    });
  });

  it("rejects a correctly signed token without an expiry as malformed", () => {
    const claims = Buffer.from(EVENT).toString("base64url");
    // A properly MACed token whose claims hold no expiry part.
    const mac = createHmac("sha256", SECRET).update(claims).digest("base64url");
    expect(verifyStreamToken(SECRET, `${claims}.${mac}`, EVENT, NOW_MS)).toEqual({
      ok: false,
      reason: "malformed",
    });
  });
});
