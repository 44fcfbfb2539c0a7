import { createHmac } from "node:crypto";
import {
  buildDeliveryHeaders,
  deliverySigningKeys,
  signHookflow,
  signStandardWebhooks,
  verifyHookflowSignature,
  verifyStandardWebhooks,
} from "./outgoing-signature.js";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const NOW_MS = 1_614_265_330_123;
const BODY = '{"test": 2432232314}';

function independentHex(key: string, message: string): string {
  return createHmac("sha256", key).update(message).digest("hex");
}

describe("signHookflow", () => {
  it("signs '<t>.<body>' keyed with the whole secret including its prefix", () => {
    const header = signHookflow(SECRET, NOW_MS, BODY);
    expect(header).toBe(`t=${NOW_MS},v1=${independentHex(SECRET, `${NOW_MS}.${BODY}`)}`);
  });

  it("gives the same signature for a string body and its UTF-8 bytes", () => {
    const body = '{"name":"Zoë","emoji":"🚀"}';
    expect(signHookflow(SECRET, NOW_MS, new TextEncoder().encode(body))).toBe(
      signHookflow(SECRET, NOW_MS, body),
    );
  });

  it("matches a fixed vector", () => {
    expect(signHookflow("whsec_test", 1_700_000_000_000, '{"a":1}')).toBe(
      "t=1700000000000,v1=33284ebef248a1f463f81384bfb39351b857cb4897c654b820611536fa084f1e",
    );
  });
});

describe("verifyHookflowSignature", () => {
  const header = signHookflow(SECRET, NOW_MS, BODY);

  it("accepts its own signature within the tolerance", () => {
    expect(verifyHookflowSignature(SECRET, header, BODY, { nowMs: NOW_MS + 299_000 })).toEqual({
      ok: true,
    });
  });

  it.each([
    ["missing header", undefined, BODY, NOW_MS, "missing_header"],
    ["no v1 part", `t=${NOW_MS}`, BODY, NOW_MS, "malformed"],
    ["non-numeric t", header.replace(/^t=\d+/, "t=abc"), BODY, NOW_MS, "malformed"],
    ["changed body", header, '{"test": 2432232315}', NOW_MS, "mismatch"],
    ["timestamp older than 5 minutes", header, BODY, NOW_MS + 300_001, "expired"],
  ])("rejects a %s", (_name, value, body, nowMs, reason) => {
    expect(verifyHookflowSignature(SECRET, value, body, { nowMs })).toEqual({ ok: false, reason });
  });

  it("rejects a signature made with another secret", () => {
    const other = signHookflow("whsec_other", NOW_MS, BODY);
    expect(verifyHookflowSignature(SECRET, other, BODY, { nowMs: NOW_MS })).toEqual({
      ok: false,
      reason: "mismatch",
    });
  });

  it("skips the age check when the tolerance is 0", () => {
    const result = verifyHookflowSignature(SECRET, header, BODY, {
      nowMs: NOW_MS + 86_400_000,
      toleranceMs: 0,
    });
    expect(result).toEqual({ ok: true });
  });
});

describe("signStandardWebhooks", () => {
  it("reproduces the official Standard Webhooks test vector", () => {
    expect(signStandardWebhooks(SECRET, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, BODY)).toBe(
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    );
  });
});

describe("verifyStandardWebhooks", () => {
  const headers = {
    "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
    "webhook-timestamp": "1614265330",
    "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  };

  it("accepts the official test vector", () => {
    expect(verifyStandardWebhooks(SECRET, headers, BODY, { nowMs: 1614265330_000 })).toEqual({
      ok: true,
    });
  });

  it("accepts when any of several space-separated signatures matches", () => {
    const multi = {
      ...headers,
      "webhook-signature": `v1,bm90IGl0 ${headers["webhook-signature"]}`,
    };
    expect(verifyStandardWebhooks(SECRET, multi, BODY, { nowMs: 1614265330_000 })).toEqual({
      ok: true,
    });
  });

  it.each([
    [
      "a missing id",
      { ...headers, "webhook-id": undefined },
      BODY,
      1614265330_000,
      "missing_header",
    ],
    ["a changed body", headers, '{"test": 1}', 1614265330_000, "mismatch"],
    ["a changed id", { ...headers, "webhook-id": "msg_other" }, BODY, 1614265330_000, "mismatch"],
    ["an old timestamp", headers, BODY, 1614265330_000 + 301_000, "expired"],
    ["a future timestamp", headers, BODY, 1614265330_000 - 301_000, "expired"],
    [
      "an unknown version",
      { ...headers, "webhook-signature": "v2,abc" },
      BODY,
      1614265330_000,
      "malformed",
    ],
  ])("rejects %s", (_name, h, body, nowMs, reason) => {
    expect(verifyStandardWebhooks(SECRET, h, body, { nowMs })).toEqual({ ok: false, reason });
  });
});

describe("buildDeliveryHeaders", () => {
  it("carries Hookflow and Standard Webhooks headers that both verify", () => {
    const eventId = "evt_01J0000000000000000000000";
    const h = buildDeliveryHeaders({
      eventId,
      attempt: 3,
      keys: deliverySigningKeys(SECRET),
      body: BODY,
      nowMs: NOW_MS,
    });
    expect(h).toEqual({
      "Content-Type": "application/json",
      "X-Hookflow-Event-Id": eventId,
      "X-Hookflow-Timestamp": "1614265330",
      "X-Hookflow-Delivery-Attempt": "3",
      "X-Hookflow-Attempt": "3",
      "X-Hookflow-Signature": signHookflow(SECRET, NOW_MS, BODY),
      "webhook-id": eventId,
      "webhook-timestamp": "1614265330",
      "webhook-signature": signStandardWebhooks(SECRET, eventId, 1614265330, BODY),
    });
    expect(
      verifyHookflowSignature(SECRET, h["X-Hookflow-Signature"], BODY, { nowMs: NOW_MS }),
    ).toEqual({ ok: true });
    expect(verifyStandardWebhooks(SECRET, h, BODY, { nowMs: NOW_MS })).toEqual({ ok: true });
  });

  it("omits signature headers when the webhook has no signing keys", () => {
    const h = buildDeliveryHeaders({
      eventId: "evt_1",
      attempt: 1,
      keys: null,
      body: BODY,
      nowMs: NOW_MS,
    });
    expect(h["X-Hookflow-Signature"]).toBeUndefined();
    expect(h["webhook-signature"]).toBeUndefined();
    expect(h["webhook-id"]).toBe("evt_1");
    expect(h["X-Hookflow-Attempt"]).toBe("1");
  });

  it("adds the chain headers for a chained delivery", () => {
    const h = buildDeliveryHeaders({
      eventId: "evt_2",
      attempt: 1,
      keys: deliverySigningKeys(SECRET),
      body: BODY,
      nowMs: NOW_MS,
      chain: { step: 1, original: { a: 1 }, previous: { statusCode: 200, body: "ok" } },
    });
    expect(h["X-Hookflow-Chain-Step"]).toBe("1");
    expect(h["X-Hookflow-Chain-Original"]).toBe("eyJhIjoxfQ==");
    expect(
      JSON.parse(Buffer.from(h["X-Hookflow-Chain-Previous"] ?? "", "base64").toString()),
    ).toEqual({ statusCode: 200, body: "ok" });
  });
});
