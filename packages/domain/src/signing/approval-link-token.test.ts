import { createHmac } from "node:crypto";
import { createApprovalLinkToken, verifyApprovalLinkToken } from "./approval-link-token.js";
import { createStreamToken } from "./stream-token.js";

const SECRET = "server-secret";
const PARK = "park_01ABC";
const NOW_MS = 1_700_000_000_000;
const EXPIRES = NOW_MS + 3_600_000;
const APPROVE_VECTOR =
  "cGFya18wMUFCQy5hcHByb3ZlZC4xNzAwMDAzNjAwMDAw.8WGNwV8wtBH5FEC3hopJnkEdYShp-d1GGDtx-8Gc_YQ";
const REJECT_VECTOR =
  "cGFya18wMUFCQy5yZWplY3RlZC4xNzAwMDAzNjAwMDAw.RyqXP1JOsKPZj2ALgDHbhJr_Rls562EMuyFd89m07zo";

describe("createApprovalLinkToken", () => {
  it.each([
    ["approved", APPROVE_VECTOR],
    ["rejected", REJECT_VECTOR],
  ] as const)("matches a fixed vector for the %s decision", (decision, vector) => {
    expect(createApprovalLinkToken(SECRET, { parkId: PARK, decision, expiresAtMs: EXPIRES })).toBe(
      vector,
    );
  });
});

describe("verifyApprovalLinkToken", () => {
  it("returns the claims of a valid token until it expires", () => {
    const claims = { parkId: PARK, decision: "approved", expiresAtMs: EXPIRES };
    expect(verifyApprovalLinkToken(SECRET, APPROVE_VECTOR, NOW_MS)).toEqual({ ok: true, claims });
    expect(verifyApprovalLinkToken(SECRET, APPROVE_VECTOR, EXPIRES)).toEqual({ ok: true, claims });
  });

  it("keeps a park id that itself contains dots", () => {
    const token = createApprovalLinkToken(SECRET, {
      parkId: "a.b.c",
      decision: "rejected",
      expiresAtMs: EXPIRES,
    });
    expect(verifyApprovalLinkToken(SECRET, token, NOW_MS)).toEqual({
      ok: true,
      claims: { parkId: "a.b.c", decision: "rejected", expiresAtMs: EXPIRES },
    });
  });

  it("rejects a token after its expiry", () => {
    expect(verifyApprovalLinkToken(SECRET, APPROVE_VECTOR, EXPIRES + 1)).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("rejects a token signed with another secret", () => {
    expect(verifyApprovalLinkToken("other-secret", APPROVE_VECTOR, NOW_MS)).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });

  it("rejects an approve link turned into a reject link by editing its claims", () => {
    const [, signature] = APPROVE_VECTOR.split(".");
    const [claims] = REJECT_VECTOR.split(".");
    expect(verifyApprovalLinkToken(SECRET, `${claims}.${signature}`, NOW_MS)).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });

  it("rejects a stream token signed with the same secret", () => {
    const stream = createStreamToken(SECRET, `${PARK}.approved`, EXPIRES);
    expect(verifyApprovalLinkToken(SECRET, stream, NOW_MS)).toEqual({
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
    expect(verifyApprovalLinkToken(SECRET, value, NOW_MS)).toEqual({
      ok: false,
      reason: "malformed",
    });
  });

  it.each([
    ["park_1.approved", "no expiry"],
    ["park_1.maybe.1700003600000", "an unknown decision"],
    [".approved.1700003600000", "an empty park id"],
  ])("rejects a correctly signed token with %s (%s) as malformed", (raw) => {
    const claims = Buffer.from(raw).toString("base64url");
    const mac = createHmac("sha256", SECRET).update(`approval-link.${claims}`).digest("base64url");
    expect(verifyApprovalLinkToken(SECRET, `${claims}.${mac}`, NOW_MS)).toEqual({
      ok: false,
      reason: "malformed",
    });
  });
});
