import { createHmac } from "node:crypto";
import {
  type IncomingSignatureType,
  signIncomingForTest,
  verifyIncomingSignature,
} from "./incoming-signature.js";

const SECRET = "incoming-secret";
const NOW_MS = 1_700_000_000_000;
const NOW_S = 1_700_000_000;
const BODY_TEXT = '{"id":"evt_1","amount":42,"name":"Zoë"}';
const BODY = new TextEncoder().encode(BODY_TEXT);

function hex(key: string, message: string): string {
  return createHmac("sha256", key).update(message, "utf8").digest("hex");
}

function lookup(headers: Record<string, string>) {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return (name: string) => lower.get(name.toLowerCase());
}

function verify(type: IncomingSignatureType, headers: Record<string, string>, nowMs = NOW_MS) {
  return verifyIncomingSignature({
    type,
    secret: SECRET,
    headers: lookup(headers),
    rawBody: BODY,
    nowMs,
  });
}

describe("verifyIncomingSignature", () => {
  it("accepts anything when the type is none", () => {
    expect(verify("none", {})).toEqual({ ok: true });
  });

  it("verifies the known GitHub documentation example", () => {
    const result = verifyIncomingSignature({
      type: "github",
      secret: "It's a Secret to Everybody",
      headers: lookup({
        "X-Hub-Signature-256":
          "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
      }),
      rawBody: new TextEncoder().encode("Hello, World!"),
      nowMs: NOW_MS,
    });
    expect(result).toEqual({ ok: true });
  });

  const good = {
    custom: { "X-Webhook-Signature": `sha256=${hex(SECRET, BODY_TEXT)}` },
    github: { "x-hub-signature-256": `sha256=${hex(SECRET, BODY_TEXT)}` },
    stripe: { "stripe-signature": `t=${NOW_S},v1=${hex(SECRET, `${NOW_S}.${BODY_TEXT}`)}` },
  } as const;

  it.each(Object.entries(good))("accepts a correct %s signature", (type, headers) => {
    expect(verify(type as IncomingSignatureType, headers)).toEqual({ ok: true });
  });

  it.each([
    ["custom", {}, "missing_header"],
    ["github", {}, "missing_header"],
    ["stripe", {}, "missing_header"],
    ["custom", { "X-Webhook-Signature": hex(SECRET, BODY_TEXT) }, "malformed"],
    ["github", { "x-hub-signature-256": "sha256=xyz" }, "malformed"],
    ["stripe", { "stripe-signature": `v1=${hex(SECRET, `${NOW_S}.${BODY_TEXT}`)}` }, "malformed"],
    ["stripe", { "stripe-signature": `t=${NOW_S}` }, "malformed"],
    ["custom", { "X-Webhook-Signature": `sha256=${hex("wrong", BODY_TEXT)}` }, "mismatch"],
    ["github", { "x-hub-signature-256": `sha256=${hex(SECRET, `${BODY_TEXT} `)}` }, "mismatch"],
    ["stripe", { "stripe-signature": `t=${NOW_S},v1=${hex(SECRET, BODY_TEXT)}` }, "mismatch"],
    // The github header is not accepted for the custom type and vice versa.
    ["custom", good.github, "missing_header"],
    ["github", good.custom, "missing_header"],
  ] as const)("rejects a %s request with headers %j as %s", (type, headers, reason) => {
    expect(verify(type, headers)).toEqual({ ok: false, reason });
  });

  it("accepts a stripe header when any of several v1 signatures matches", () => {
    const sig = hex(SECRET, `${NOW_S}.${BODY_TEXT}`);
    const headers = { "stripe-signature": `t=${NOW_S},v1=${"0".repeat(64)},v1=${sig},v0=abc` };
    expect(verify("stripe", headers)).toEqual({ ok: true });
  });

  it("rejects a stripe signature older than 300 seconds", () => {
    const t = NOW_S - 301;
    const headers = { "stripe-signature": `t=${t},v1=${hex(SECRET, `${t}.${BODY_TEXT}`)}` };
    expect(verify("stripe", headers)).toEqual({ ok: false, reason: "expired" });
    expect(verify("stripe", headers, (t + 300) * 1000)).toEqual({ ok: true });
  });

  it("accepts an uppercase hex digest", () => {
    const headers = { "X-Webhook-Signature": `sha256=${hex(SECRET, BODY_TEXT).toUpperCase()}` };
    expect(verify("custom", headers)).toEqual({ ok: true });
  });

  it("rejects every request when a verifying type has no secret", () => {
    const result = verifyIncomingSignature({
      type: "custom",
      secret: "",
      headers: lookup({ "X-Webhook-Signature": `sha256=${hex("", BODY_TEXT)}` }),
      rawBody: BODY,
      nowMs: NOW_MS,
    });
    expect(result).toEqual({ ok: false, reason: "mismatch" });
  });
});

describe("signIncomingForTest", () => {
  it.each(["custom", "github", "stripe"] as const)(
    "produces %s headers that pass verification",
    (type) => {
      const headers = signIncomingForTest({ type, secret: SECRET, rawBody: BODY, nowMs: NOW_MS });
      expect(Object.keys(headers)).toHaveLength(1);
      expect(verify(type, headers)).toEqual({ ok: true });
    },
  );

  it("produces exactly the header a sender would send", () => {
    expect(
      signIncomingForTest({
        type: "stripe",
        secret: SECRET,
        rawBody: BODY_TEXT,
        nowMs: NOW_MS + 999,
      }),
    ).toEqual({ "Stripe-Signature": `t=${NOW_S},v1=${hex(SECRET, `${NOW_S}.${BODY_TEXT}`)}` });
    expect(
      signIncomingForTest({ type: "github", secret: SECRET, rawBody: BODY, nowMs: NOW_MS }),
    ).toEqual({
      "X-Hub-Signature-256": `sha256=${hex(SECRET, BODY_TEXT)}`,
    });
  });

  it("produces no headers for the none type", () => {
    expect(
      signIncomingForTest({ type: "none", secret: SECRET, rawBody: BODY, nowMs: NOW_MS }),
    ).toEqual({});
  });
});
